import { z } from 'zod';
import { REPLAY_COUNTS } from '../../domain/replay-session.ts';
import { isoDate } from '../shared-schemas.ts';

export const replayQuerySchema = z.object({
  // A query string over REST; a number or a string over tRPC. Listed as values so the API
  // reference shows exactly what is accepted.
  count: z
    .union([z.enum(['10', '20', '50']), z.literal(REPLAY_COUNTS)], { error: 'count must be 10, 20 or 50' })
    .transform((v) => Number(v) as (typeof REPLAY_COUNTS)[number])
    .meta({ description: 'How many items a new session has: 10, 20 or 50.', example: '10' }),
});

export const replayItemSchema = z
  .object({
    itemId: z.uuid(),
    cardId: z.uuid(),
    prompt: z.string().meta({ description: 'The card’s translation into your native language.' }),
    answer: z.string().meta({ description: 'The English to reconstruct (the corrected text if preparation corrected it).' }),
    mask: z.string().meta({ description: 'As long as `answer` in code points: `_` hidden, `.` shown.' }),
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

export type ReplayItemView = z.infer<typeof replayItemSchema>;
export type ReplaySessionView = z.infer<typeof replaySessionSchema>;
export type ReplayResult = z.infer<typeof replayResultSchema>;
