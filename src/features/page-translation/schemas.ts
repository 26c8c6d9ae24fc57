import { z } from 'zod';
import { IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_PATTERN, PAGE_TRANSLATION_LIMITS } from '../../domain/limits.ts';
import { batchLimitErrors } from './request.ts';
import { codePointString, languageTag, languageTagOutput, sourceLanguageTag } from '../shared-schemas.ts';

const L = PAGE_TRANSLATION_LIMITS;

const item = z.object({
  id: codePointString(1, L.maxIdLength).meta({ description: 'Unique within the request (a rule JSON Schema cannot state across items).' }),
  text: codePointString(0, L.maxTotalCodePoints).meta({
    description: `Item texts together are at most ${L.maxTotalCodePoints} characters (code points) per request; one item alone may use all of it.`,
  }),
});

export const pageTranslationRequestSchema = z
  .object({
    request_id: z.string().regex(IDEMPOTENCY_KEY_PATTERN, `1..${IDEMPOTENCY_KEY_MAX} characters of A-Z a-z 0-9 . _ : -`),
    target_language: languageTag,
    source_language: sourceLanguageTag,
    items: z.array(item).min(1, 'at least 1 item').max(L.maxItems, `at most ${L.maxItems} items per request`),
  })
  .superRefine((body, ctx) => {
    for (const error of batchLimitErrors(body.items)) {
      ctx.addIssue({ code: 'custom', path: error.path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)), message: error.message });
    }
  });

export const pageTranslationResponseSchema = z
  .object({
    request_id: z.string(),
    target_language: languageTagOutput,
    items: z.array(
      z.object({ id: z.string(), text: z.string(), detected_source_language: z.string().meta({ description: 'A BCP 47 tag, `und` when unknown.' }) }),
    ),
    credits_charged: z.number().int(),
  })
  .meta({ id: 'PageTranslation' });

/** tRPC has no response headers: a replay is said by `replayed` beside the response (REST: `Idempotent-Replayed`). */
export const pageTranslationResultSchema = pageTranslationResponseSchema.extend({ replayed: z.boolean() });

export type PageTranslationResponse = z.input<typeof pageTranslationResponseSchema>;
