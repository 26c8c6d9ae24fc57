import { z } from 'zod';
import { FOCUS_KINDS, REGISTERS } from './preparation-rules.ts';
import { CURSOR_PATTERN, captureTextProblem } from './listing.ts';
import { CAPTURE_TEXT_MAX, LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX } from '../../domain/limits.ts';
import { cleanedLengthPattern, LETTER_PATTERN } from '../../domain/normalise.ts';
import { codePointString, isoDate } from '../shared-schemas.ts';

export const cardIdSchema = z.uuid().meta({ description: 'The card id (`cardId`).' });

export const captureSchema = z.object({
  text: z
    .string()
    // The document's statement of the rule (both patterns must match); captureTextProblem is the rule.
    .regex(cleanedLengthPattern(CAPTURE_TEXT_MAX), `1..${CAPTURE_TEXT_MAX} characters once trimmed and whitespace collapsed`)
    .regex(LETTER_PATTERN, 'must contain at least one letter')
    .superRefine((text, ctx) => {
      const problem = captureTextProblem(text);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .meta({
      description: `A short English expression: trimmed, whitespace runs collapsed to one space, then 1..${CAPTURE_TEXT_MAX} characters (code points) with at least one letter of any script (Unicode \\p{L}).`,
      example: 'break a leg',
    }),
});

export const preparationSchema = z
  .object({
    translation: z.string(),
    correctedText: z
      .string()
      .nullable()
      .meta({ description: 'Set only for a high-confidence surface fix (spelling, capitalisation, punctuation, agreement).' }),
    correctionNote: z.string().nullable(),
    usage: z.object({ register: z.enum(REGISTERS), guidance: z.string(), examples: z.array(z.string()) }),
    focuses: z.array(z.object({ kind: z.enum(FOCUS_KINDS), note: z.string() })),
  })
  .meta({ id: 'CardEnrichment' });

export const cardSchema = z
  .object({
    cardId: z.uuid(),
    text: z.string(),
    enrichmentStatus: z.enum(['pending', 'ready', 'failed']),
    createdAt: isoDate,
    enrichment: preparationSchema.nullable().meta({ description: 'Null until enrichmentStatus is ready.' }),
    enrichmentError: z.object({ code: z.string(), message: z.string() }).optional().meta({ description: 'Only when enrichmentStatus is failed.' }),
    enrichmentWaiting: z
      .object({ code: z.literal('service_unavailable'), message: z.string(), since: isoDate })
      .optional()
      .meta({
        description:
          'Only when enrichmentStatus is pending and its preparation waits out an outage of the language model (since its first failed call): it is retried by itself, for up to 30 minutes, and the card stays pending meanwhile.',
      }),
  })
  .meta({ id: 'Card' });

export const cardDetailSchema = cardSchema
  .extend({
    scheduling: z.object({
      state: z.enum(['new', 'learning', 'review', 'relearning']),
      due: isoDate,
      reps: z.number().int(),
      lapses: z.number().int(),
      stability: z.number(),
      lastReview: isoDate.nullable(),
    }),
  })
  .meta({ id: 'CardDetail' });

export const capturedSchema = z.object({ card: cardSchema });
export const reusedSchema = z.object({ card: cardSchema, reused: z.literal(true) });
/** A capture's result on both transports; REST shows a new card as 202 `{ card }` and a reused one as 200. */
export const captureResultSchema = z.object({ card: cardSchema, reused: z.boolean() });
export const cardEnvelopeSchema = z.object({ card: cardDetailSchema });
export const cardIdInputSchema = z.object({ cardId: cardIdSchema });
export const deletedSchema = z.object({ deleted: z.literal(true) });

export const listQuerySchema = z.object({
  query: codePointString(0, CAPTURE_TEXT_MAX).optional().meta({ description: 'Matches text and translation, case- and accent-insensitive.' }),
  cursor: z
    .string()
    .regex(CURSOR_PATTERN, 'not a cursor from this service')
    .optional()
    .meta({ description: 'The previous page’s `nextCursor`: opaque, 32 characters of base64url.' }),
  limit: z.coerce.number().int().min(1).max(LIST_LIMIT_MAX).default(LIST_LIMIT_DEFAULT),
});

export const listSchema = z.object({ items: z.array(cardSchema), nextCursor: z.string().regex(CURSOR_PATTERN).nullable() });

export const retryPreparationSchema = z.object({
  cardId: cardIdSchema,
  action: z.enum(['refresh_enrichment']),
});

/**
 * DELETE takes the cardId in the query or in a JSON body (both: the same value). JSON Schema
 * cannot relate a parameter to the body, so each is optional in the document and the rule is
 * in the operation's description.
 */
export const deleteQuerySchema = z.object({ cardId: cardIdSchema.optional() });
export const deleteBodySchema = z.object({ cardId: cardIdSchema.optional() }).nullish();

export type Card = z.infer<typeof cardSchema>;
export type CardDetail = z.infer<typeof cardDetailSchema>;
export type PreparationStatus = Card['enrichmentStatus'];

export const knownExpressionSchema = z.object({
  cardId: z.uuid(),
  text: z
    .string()
    .meta({ description: 'The expression normalised as captures are deduplicated (NFC, case-folded, whitespace collapsed, trailing punctuation dropped).' }),
  translation: z.string().nullable().meta({ description: 'The card’s translation; null until its preparation is ready.' }),
});

export const knownExpressionsSchema = z.object({
  etag: z.string().meta({ description: 'The same value as the ETag header.' }),
  expressions: z.array(knownExpressionSchema).meta({ description: 'One entry per card, and one more when preparation corrected its text.' }),
});

export const knownExpressionsInputSchema = z.object({ ifNoneMatch: z.string().optional() });
