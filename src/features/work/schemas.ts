import { z } from 'zod';
import { trimmedLengthPattern } from '../../domain/normalise.ts';

export const TONES = ['neutral', 'formal', 'casual'] as const;
export type Tone = (typeof TONES)[number];

/** Prompt length in code points, as every length in this API. */
const prompt = z
  .string()
  .regex(trimmedLengthPattern(2000), '1..2000 characters once trimmed')
  .trim()
  .meta({ description: 'What you want to say: 1..2000 characters (code points) once trimmed.' });

export const workRequestSchema = z
  .object({
    prompt,
    tone: z.enum(TONES).default('neutral'),
    useLibrary: z.boolean().default(false),
  })
  .meta({ id: 'WorkRequest' });

const idempotencyKey = z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/, '1..128 of A-Z a-z 0-9 . _ : -');

/** Optional header: retries of one request under the same key are charged once. */
export const workHeadersSchema = z.looseObject({ 'idempotency-key': idempotencyKey.optional() });

/** The operation's input: REST takes the key from the `Idempotency-Key` header, tRPC from the input. */
export const workInputSchema = workRequestSchema.extend({ idempotencyKey: idempotencyKey.optional() });

export const workResponseSchema = z
  .object({
    english: z.string(),
    notes: z.array(z.string()),
    usedCardIds: z.array(z.uuid()),
    creditsCharged: z.number().int(),
  })
  .meta({ id: 'WorkDraft' });

export type WorkResponse = z.infer<typeof workResponseSchema>;
