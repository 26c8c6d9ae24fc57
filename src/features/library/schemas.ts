import { z } from 'zod';
import { FOCUS_KINDS, REGISTERS } from './preparation-rules.ts';
import { CURSOR_PATTERN, captureTextProblem } from './listing.ts';
import {
  CAPTURE_TEXT_MAX,
  CARD_CONTEXTS_MAX,
  CONTEXT_MAX,
  ENCOUNTER_BATCH_MAX,
  ENCOUNTERS_PER_DAY,
  LIST_LIMIT_DEFAULT,
  LIST_LIMIT_MAX,
  SOURCE_URL_MAX,
} from '../../domain/limits.ts';
import { cleanedLengthPattern, LETTER_PATTERN } from '../../domain/normalise.ts';
import { codePointString, isoDate } from '../shared-schemas.ts';

const cardIdSchema = z.uuid().meta({ description: 'The card id (`cardId`).' });

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
      description:
        `A short English expression: trimmed, whitespace runs collapsed to one space, then 1..${CAPTURE_TEXT_MAX} characters (code points) with ` +
        `at least one letter of any script (Unicode \\p{L}).`,
      example: 'break a leg',
    }),
  context: z
    .string()
    .regex(cleanedLengthPattern(CONTEXT_MAX), `1..${CONTEXT_MAX} characters once trimmed and whitespace collapsed`)
    .nullish()
    .meta({
      description:
        `Optional: the sentence the expression was met in, 1..${CONTEXT_MAX} characters (code points, trimmed, whitespace collapsed), ` +
        `containing the expression (compared case-, accent- and spacing-insensitively; 400 otherwise). A new card is prepared for the sense this sentence ` +
        `uses; a known card gets it added to its contexts, free and without preparing again. Stored with the card as one of your own examples; never ` +
        `logged.`,
      example: 'We had a picnic on the bank of the river.',
    }),
  sourceUrl: z
    .url({ protocol: /^https?$/ }) // kept as given: normalising could lengthen an address past the limit it was checked against
    .max(SOURCE_URL_MAX)
    .nullish()
    .meta({
      description:
        `Optional, only with a \`context\` (400 otherwise): where the sentence was met, such as a video's address at that second; http or https, ` +
        `at most ${SOURCE_URL_MAX} characters. Kept with the context (\`contexts[].sourceUrl\`); sent by the browser extension only when the learner ` +
        `turned on "Keep a link back to the moment".`,
      example: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s',
    }),
});

const preparationSchema = z
  .object({
    translation: z.string(),
    correctedText: z
      .string()
      .nullable()
      .meta({ description: 'Set only for a high-confidence surface fix (spelling, capitalisation, punctuation, agreement).' }),
    correctionNote: z.string().nullable(),
    usage: z.object({ register: z.enum(REGISTERS), guidance: z.string(), examples: z.array(z.string()) }),
    focuses: z.array(z.object({ kind: z.enum(FOCUS_KINDS), note: z.string() })),
    sense: z
      .object({ gloss: z.string(), cue: z.string() })
      .nullable()
      .optional()
      .meta({
        description:
          'The sense the card was prepared for, when it was prepared with a context: its gloss in your native language and the words of the context that ' +
          'decided it. Null or absent without a context.',
      }),
  })
  .meta({ id: 'CardEnrichment' });

const cardContextSchema = z
  .object({
    contextId: z.uuid(),
    text: z.string().meta({ description: 'The sentence, as stored: trimmed, whitespace collapsed, NFC.' }),
    start: z.number().int().min(0).meta({ description: 'Where the expression starts in `text`, in code points.' }),
    end: z.number().int().min(1).meta({ description: 'Where the expression ends in `text` (exclusive), in code points.' }),
    createdAt: isoDate,
    sourceUrl: z.string().nullable().meta({ description: 'Where it was met (a video at that second), when the capture kept a link back; else null.' }),
  })
  .meta({ id: 'CardContext' });

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
          'Only when enrichmentStatus is pending and its preparation waits out an outage of the language model (since its first failed call): it is ' +
          'retried by itself, for up to 30 minutes, and the card stays pending meanwhile.',
      }),
    metCount: z.number().int().min(0).meta({ description: 'How many times you met the expression on a page (encounters, POST /api/encounters).' }),
    lastMetAt: isoDate.nullable().meta({ description: 'When you last met it; null if never.' }),
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
    contexts: z
      .array(cardContextSchema)
      .meta({ description: `The sentences you met it in, oldest first: the first one and the newest, ${CARD_CONTEXTS_MAX} at most.` }),
    preparedContextId: z.uuid().nullable().meta({ description: 'The context the card’s preparation chose its sense for; null when none.' }),
    preparedByModel: z
      .string()
      .nullable()
      .meta({
        description:
          'The language model that prepared the card (as the endpoint named it); null unless the card is ready, and for cards prepared before ' +
          'models were recorded. `POST /api/library/{cardId}/prepare-again` prepares it again with the current one.',
      }),
    encounters: z
      .array(isoDate)
      .meta({ description: 'When you last met it on a page in the last 30 days, newest first (20 at most; `metCount` and `lastMetAt` count them all).' }),
  })
  .meta({ id: 'CardDetail' });

export const capturedSchema = z.object({ card: cardSchema });
export const capturedInContextSchema = z.object({ card: cardSchema, context: cardContextSchema.optional() });
export const reusedSchema = z.object({ card: cardSchema, reused: z.literal(true), context: cardContextSchema.optional() });
/** A capture's result on both transports; REST shows a new card as 202 `{ card }` and a reused one as 200. */
export const captureResultSchema = z.object({ card: cardSchema, reused: z.boolean(), context: cardContextSchema.optional() });
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
  sort: z
    .enum(['newest', 'met'])
    .default('newest')
    .meta({ description: '`newest` (the default): newest first; `met`: the expressions you met most often on pages first (`metCount`), then newest.' }),
});

export const listSchema = z.object({ items: z.array(cardSchema), nextCursor: z.string().regex(CURSOR_PATTERN).nullable() });

export const prepareSenseBodySchema = z.object({ contextId: z.uuid().meta({ description: 'One of the card’s contexts (`contexts[].contextId`).' }) });
export const prepareSenseSchema = z.object({ cardId: cardIdSchema, contextId: prepareSenseBodySchema.shape.contextId });

export const encounterBatchSchema = z
  .object({
    pageViewId: z.uuid().meta({
      description:
        'A random id your client makes for one page view (a new one for each page load). Never the page’s address: the service is not told where you read.',
    }),
    encounters: z
      .array(
        z.object({
          cardId: cardIdSchema,
          metAt: z.iso.datetime({ offset: true }).meta({ description: 'When the expression was on the page (within the last 7 days).' }),
        }),
      )
      .min(1)
      .max(ENCOUNTER_BATCH_MAX)
      .meta({ description: `The known expressions on the page, 1..${ENCOUNTER_BATCH_MAX}; a card listed twice counts once.` }),
  })
  .meta({ id: 'EncounterBatch' });

export const ENCOUNTERS_DESCRIPTION =
  `Opt-in (the extension's "Count when I meet my expressions"): each time a page shows one of your expressions, its ` +
  `card and the time, at most once per card per page view, batched per page view. Never the page's text or address. Encounters are not reviews: they never ` +
  `enter the review log nor its FSRS export. At most ${ENCOUNTERS_PER_DAY} a day (429 with Retry-After until the next UTC day); a card that is not yours → ` +
  `404 naming it, and nothing of the batch is recorded.`;

export const encountersRecordedSchema = z
  .object({
    recorded: z.number().int().min(0).meta({ description: 'Encounters newly recorded.' }),
    alreadyRecorded: z.number().int().min(0).meta({ description: 'Cards this page view had reported already (a retried batch): not counted twice.' }),
  })
  .meta({ id: 'EncountersRecorded' });

export const preparationSettingsSchema = z
  .object({
    prepareOnRenewal: z.boolean().meta({
      description:
        'When true, cards whose preparation failed because the credits were used up are prepared again (charged once each) when the next period’s credits ' +
        'are granted; when false (the default) they wait for a retry.',
    }),
  })
  .meta({ id: 'PreparationSettings' });

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
