import { z } from 'zod';
import { DRAFT_PROMPT_MAX, IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_PATTERN } from '../../domain/limits.ts';
import { trimmedLengthPattern } from '../../domain/normalise.ts';

export const TONES = ['neutral', 'formal', 'casual'] as const;
export type Tone = (typeof TONES)[number];

/** Prompt length in code points, as every length in this API. */
const prompt = z
  .string()
  .regex(trimmedLengthPattern(DRAFT_PROMPT_MAX), `1..${DRAFT_PROMPT_MAX} characters once trimmed`)
  .trim()
  .meta({ description: `What you want to say: 1..${DRAFT_PROMPT_MAX} characters (code points) once trimmed.` });

export const draftRequestSchema = z
  .object({
    prompt,
    tone: z.enum(TONES).default('neutral'),
    useLibrary: z.boolean().default(false),
  })
  .meta({ id: 'WorkRequest' });

const idempotencyKey = z.string().regex(IDEMPOTENCY_KEY_PATTERN, `1..${IDEMPOTENCY_KEY_MAX} of A-Z a-z 0-9 . _ : -`);

/** Optional header: retries of one request under the same key are charged once. */
export const draftHeadersSchema = z.looseObject({ 'idempotency-key': idempotencyKey.optional() });

/** The operation's input: REST takes the key from the `Idempotency-Key` header, tRPC from the input. */
export const draftInputSchema = draftRequestSchema.extend({ idempotencyKey: idempotencyKey.optional() });

export const draftSchema = z
  .object({
    english: z.string(),
    notes: z.array(z.string()),
    usedCardIds: z.array(z.uuid()),
    creditsCharged: z.number().int(),
  })
  .meta({ id: 'WorkDraft' });

export type Draft = z.infer<typeof draftSchema>;
