import { z } from 'zod';
import { FORECAST_DAYS } from './forecast-rules.ts';
import { REPLAY_COUNTS, REPLAY_DURATION_MAX_MS } from '../../domain/limits.ts';
import { ANSWER_MAX_AGE_DAYS } from './answer-time-rules.ts';
import { MAX_DESIRED_RETENTION, MIN_DESIRED_RETENTION } from '../../domain/scheduling.ts';
import type { ReplayCount } from './session-plan.ts';
import { isoDate } from '../shared-schemas.ts';

/** The prompts a Replay item can be practised with: its translation, or a cloze inside one of the learner's contexts. */
const REPLAY_PROMPTS = ['translation', 'context'] as const;

const COUNT_TEXTS = REPLAY_COUNTS.map(String) as [`${ReplayCount}`, ...`${ReplayCount}`[]];
/** The sizes in words, for messages: "a, b or c". */
const COUNTS_IN_WORDS = `${COUNT_TEXTS.slice(0, -1).join(', ')} or ${COUNT_TEXTS.at(-1)}`;

export const replayQuerySchema = z.object({
  // A query string over REST; a number or a string over tRPC. Listed as values so the API
  // reference shows exactly what is accepted.
  count: z
    .union([z.enum(COUNT_TEXTS), z.literal(REPLAY_COUNTS)], { error: `count must be ${COUNTS_IN_WORDS}` })
    .transform((v) => Number(v) as ReplayCount)
    .meta({ description: `How many items a new session has: ${COUNTS_IN_WORDS}.`, example: COUNT_TEXTS[0] }),
});

const replayItemSchema = z
  .object({
    itemId: z.uuid(),
    cardId: z.uuid(),
    prompt: z.string().meta({ description: 'The card’s translation into your native language.' }),
    answer: z.string().meta({ description: 'The English to reconstruct (the corrected text if preparation corrected it).' }),
    mask: z.string().meta({ description: 'As long as `answer` in code points: `_` hidden, `.` shown.' }),
    metSinceReview: z.boolean().optional().meta({ description: 'You met this expression on a page since its last review (encounters).' }),
    context: z
      .object({
        contextId: z.uuid(),
        before: z.string().meta({ description: 'Your sentence up to the expression.' }),
        answer: z.string().meta({ description: 'The expression as your sentence writes it: what to reconstruct with this prompt.' }),
        after: z.string().meta({ description: 'Your sentence after the expression.' }),
        mask: z.string().meta({ description: 'As long as this `answer` in code points, by the same rules as the item’s mask.' }),
      })
      .nullable()
      .optional()
      .meta({
        description:
          'A prompt from one of your own contexts: a cloze of the expression inside your sentence, which you may practise instead of the translation (then ' +
          'send `prompt: "context"`). Null when the card has no context.',
      }),
  })
  .meta({ id: 'ReplayItem' });

export const replaySessionSchema = z
  .object({
    sessionId: z.uuid().nullable().meta({ description: 'Null when there is nothing to practise (no session is opened).' }),
    resumed: z.boolean(),
    items: z.array(replayItemSchema),
  })
  .meta({ id: 'ReplaySession' });

export const replayCompletionSchema = z
  .object({
    itemId: z.uuid(),
    usedHint: z.boolean(),
    autoFilled: z.boolean(),
    unaidedErrors: z.number().int().min(0).max(1_000_000),
    prompt: z
      .enum(REPLAY_PROMPTS)
      .optional()
      .meta({ description: 'Which prompt you answered: `translation` (the default) or `context` (the item’s context cloze, rated on its mask).' }),
    durationMs: z
      .number()
      .int()
      .min(0)
      .max(REPLAY_DURATION_MAX_MS)
      .optional()
      .meta({
        description:
          'How long the learner took over the item, in milliseconds, when the client measured it. A clean answer slower than the fluent time rates good ' +
          'rather than easy.',
      }),
    answeredAt: z.iso
      .datetime({ offset: true })
      .optional()
      .meta({
        description:
          'When the learner answered, for an answer given offline and sent later (ISO 8601): the review is recorded and the card scheduled as of that ' +
          `time, as if sent then. Not in the future, not before the item's session began, at most ${ANSWER_MAX_AGE_DAYS} days ago ` +
          '(400 otherwise). Sending the same item again with the same time returns the first result; an item already answered at another time (on ' +
          'another device), or a card practised since that time, is 409 `conflict` and counts nothing. Absent: now.',
        example: '2026-11-28T07:30:00Z',
      }),
  })
  .meta({ id: 'ReplayCompletion' });

export const replayResultSchema = z
  .object({
    itemId: z.uuid(),
    cardId: z.uuid(),
    rating: z.enum(['again', 'hard', 'good', 'easy']),
    nextReviewAt: isoDate,
    feedback: z.object({
      text: z.string(),
      translation: z.string(),
      usage: z.object({ register: z.string(), guidance: z.string(), examples: z.array(z.string()) }),
    }),
  })
  .meta({ id: 'ReplayResult' });

export const replaySettingsSchema = z
  .object({
    desiredRetention: z
      .number()
      .min(MIN_DESIRED_RETENTION)
      .max(MAX_DESIRED_RETENTION)
      .meta({
        description:
          `The recall probability at which a card falls due, ${MIN_DESIRED_RETENTION}–${MAX_DESIRED_RETENTION} (default 0.9). Higher means more ` +
          `reviews and fewer forgotten cards.`,
        example: 0.9,
      }),
  })
  .meta({ id: 'ReplaySettings' });

const fittedParametersSchema = z
  .object({
    version: z.number().int(),
    logSize: z.number().int().meta({ description: 'Reviews (after each card’s first) the fit learned from and was judged on.' }),
    logLoss: z.number().meta({ description: 'Log loss of the fitted weights on your most recent reviews, held out of the fit (lower is better).' }),
    rmse: z.number().meta({ description: 'RMSE (binned) of the fitted weights on the held-out reviews.' }),
    baselineLogLoss: z.number().meta({ description: 'The same for the weights in use when the fit ran.' }),
    baselineRmse: z.number(),
    applied: z.boolean().meta({ description: 'Whether Replay schedules with these weights: only when they beat the ones in use on both measures.' }),
    fittedAt: isoDate,
  })
  .meta({ id: 'FittedParameters' });

const personalScheduleSchema = z
  .object({
    longTermReviews: z.number().int().meta({ description: 'Your reviews made a day or more after the card’s previous one: what the optimiser learns from.' }),
    reviewsNeeded: z.number().int().meta({ description: 'How many of them a fit needs.' }),
    latest: fittedParametersSchema.nullable().meta({ description: 'The latest fit of your own FSRS weights; null before the first.' }),
  })
  .meta({ id: 'PersonalSchedule', description: 'Your own FSRS weights, fitted weekly (or when you ask) once your log is large enough.' });

export const replaySettingsViewSchema = replaySettingsSchema.extend({ personalSchedule: personalScheduleSchema }).meta({ id: 'ReplaySettingsView' });

export const optimisationQueuedSchema = personalScheduleSchema
  .extend({ queued: z.literal(true) })
  .meta({ id: 'OptimisationQueued', description: 'A fit of your weights is under way; GET /api/replay/settings shows it when done.' });

export const replayForecastSchema = z
  .object({
    dueNow: z.number().int().meta({ description: 'Reviewed cards due now, overdue ones included.' }),
    nextDueAt: isoDate.nullable().meta({ description: 'When the next reviewed card falls due; null when none waits.' }),
    newCards: z.number().int().meta({ description: 'Ready cards never reviewed: a session takes them after the due ones.' }),
    days: z
      .array(z.object({ date: z.string().meta({ description: 'A UTC day, YYYY-MM-DD.' }), due: z.number().int() }))
      .meta({ description: `${FORECAST_DAYS} UTC days from today; today counts every card due by its end, overdue ones included.` }),
  })
  .meta({ id: 'ReplayForecast' });

export const cardReviewsQuerySchema = z.object({ cardId: z.uuid().meta({ description: 'The card whose reviews to list.' }) });

export const cardReviewsSchema = z
  .object({
    items: z
      .array(
        z.object({
          rating: z.enum(['again', 'hard', 'good', 'easy']),
          reviewedAt: isoDate,
          usedHint: z.boolean(),
          autoFilled: z.boolean(),
          unaidedErrors: z.number().int(),
          durationMs: z.number().int().nullable().meta({ description: 'How long the learner took, when the client measured it.' }),
        }),
      )
      .meta({ description: 'Newest first, at most 50.' }),
  })
  .meta({ id: 'CardReviews' });

export const replayUndoSchema = z.object({ itemId: z.uuid() }).meta({ id: 'ReplayUndo' });

export const replayUndoResultSchema = z
  .object({ sessionId: z.string(), item: replayItemSchema.meta({ description: 'The item again, open, with the same mask.' }) })
  .meta({ id: 'ReplayUndoResult' });

export type ReplayItemView = z.infer<typeof replayItemSchema>;
export type ReplayPrompt = (typeof REPLAY_PROMPTS)[number];
export type ReplaySessionView = z.infer<typeof replaySessionSchema>;
export type ReplayResult = z.infer<typeof replayResultSchema>;
export type CardReviews = z.infer<typeof cardReviewsSchema>;
export type ReplayUndoResult = z.infer<typeof replayUndoResultSchema>;
