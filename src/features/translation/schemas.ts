import { z } from 'zod';
import { canonicalLanguage } from '../../domain/languages.ts';
import { batchLimitErrors, PAGE_TRANSLATION_LIMITS } from '../../domain/translation-request.ts';

const language = (allowAuto: boolean) =>
  z.string().max(35).transform((tag, ctx) => {
    if (allowAuto && tag.trim().toLowerCase() === 'auto') return 'auto';
    const canonical = canonicalLanguage(tag);
    if (!canonical) {
      const hint = tag.trim().toLowerCase() === 'auto' ? '"auto" is only allowed as source_language' : 'see GET /api/languages';
      ctx.addIssue({ code: 'custom', message: `unsupported language "${tag.slice(0, 35)}"; ${hint}` });
      return z.NEVER;
    }
    return canonical;
  });

const item = z.object({
  id: z.string().min(1, 'must not be empty').max(PAGE_TRANSLATION_LIMITS.maxIdLength),
  text: z.string(),
});

export const pageTranslationRequestSchema = z
  .object({
    request_id: z.string().regex(PAGE_TRANSLATION_LIMITS.requestIdPattern, '1..128 characters of A-Z a-z 0-9 . _ : -'),
    target_language: language(false),
    source_language: language(true),
    items: z
      .array(item)
      .min(1, 'at least 1 item')
      .max(PAGE_TRANSLATION_LIMITS.maxItems, `at most ${PAGE_TRANSLATION_LIMITS.maxItems} items per request`),
  })
  .superRefine((body, ctx) => {
    for (const error of batchLimitErrors(body.items)) {
      ctx.addIssue({ code: 'custom', path: error.path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)), message: error.message });
    }
  });

export const pageTranslationResponseSchema = z
  .object({
    request_id: z.string(),
    target_language: z.string(),
    items: z.array(z.object({ id: z.string(), text: z.string(), detected_source_language: z.string() })),
    credits_charged: z.number().int(),
  })
  .meta({ id: 'PageTranslation' });

/** tRPC has no response headers: a replay is said by `replayed` beside the response (REST: `Idempotent-Replayed`). */
export const pageTranslationResultSchema = pageTranslationResponseSchema.extend({ replayed: z.boolean() });

export type PageTranslationResponse = z.infer<typeof pageTranslationResponseSchema>;
