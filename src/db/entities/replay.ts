import { defineEntity, p } from '@mikro-orm/postgresql';

/**
 * Replay tables (column meanings in migration 0006). Session opening and item completion are
 * lock-sensitive and use SQL in src/services/replay.ts; the entities serve plain reads.
 */
export const ReplaySession = defineEntity({
  name: 'ReplaySession',
  tableName: 'replay_sessions',
  properties: {
    id: p.uuid().primary(),
    userId: p.uuid(),
    requestedCount: p.integer(),
    createdAt: p.datetime(),
    finishedAt: p.datetime().nullable(),
  },
});

export const ReplayItem = defineEntity({
  name: 'ReplayItem',
  tableName: 'replay_items',
  properties: {
    id: p.uuid().primary(),
    sessionId: p.uuid(),
    userId: p.uuid(),
    cardId: p.uuid(),
    position: p.integer(),
    answer: p.text(),
    mask: p.text(),
    completedAt: p.datetime().nullable(),
    rating: p.enum(['again', 'hard', 'good', 'easy'] as const).nullable(),
    nextReviewAt: p.datetime().nullable(),
  },
});

/** One review as it happened; scheduling fields are the card's state before it (ts-fsrs ReviewLog). */
export const ReviewLog = defineEntity({
  name: 'ReviewLog',
  tableName: 'review_logs',
  properties: {
    id: p.bigint().primary(),
    cardId: p.uuid(),
    userId: p.uuid(),
    replayItemId: p.uuid().nullable(),
    rating: p.enum(['again', 'hard', 'good', 'easy'] as const),
    state: p.enum(['new', 'learning', 'review', 'relearning'] as const),
    due: p.datetime(),
    stability: p.double(),
    difficulty: p.double(),
    elapsedDays: p.integer(),
    lastElapsedDays: p.integer(),
    scheduledDays: p.integer(),
    learningSteps: p.integer(),
    reviewedAt: p.datetime(),
    usedHint: p.boolean(),
    autoFilled: p.boolean(),
    unaidedErrors: p.integer(),
    hiddenCount: p.integer(),
  },
});

export const replayEntities = [ReplaySession, ReplayItem, ReviewLog];
