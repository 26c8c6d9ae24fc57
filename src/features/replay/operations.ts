import { defineOperation, noInput } from '../../http/operation.ts';
import type { FeatureContext } from '../context.ts';
import { replayForecast } from './forecast.ts';
import { cardReviews } from './history.ts';
import { replaySettings, updateReplaySettings } from './learner-scheduling.ts';
import { optimisationStatus, requestOptimisation } from './optimiser.ts';
import {
  cardReviewsQuerySchema,
  cardReviewsSchema,
  optimisationQueuedSchema,
  replayCompletionSchema,
  replayForecastSchema,
  replayQuerySchema,
  replayResultSchema,
  replaySessionSchema,
  replaySettingsSchema,
  replaySettingsViewSchema,
  replayUndoResultSchema,
  replayUndoSchema,
} from './schemas.ts';
import { completeItem, openOrResumeSession } from './service.ts';
import { undoLastRating } from './undo.ts';

const tag = 'replay';

const settingsView = async (ctx: FeatureContext, userId: string) => ({
  ...(await replaySettings(ctx, userId)),
  personalSchedule: await optimisationStatus(ctx, userId),
});

/** Replay at /api/replay and tRPC `replay.*`; free, so not model-backed. */
export const replayOperations = {
  session: defineOperation({
    tag,
    summary: 'Open or resume a Replay session',
    auth: 'read',
    input: replayQuerySchema,
    output: replaySessionSchema,
    rest: {
      method: 'GET',
      path: '/api/replay',
      // The first item's completion; a session with no items has nothing to complete.
      links: {
        200: {
          complete: {
            operationId: 'replay.complete',
            requestBody: { itemId: '$response.body#/items/0/itemId', usedHint: false, autoFilled: false, unaidedErrors: 0 },
          },
        },
      },
    },
    handler: (ctx, { count }) => openOrResumeSession(ctx, ctx.principal.userId, count),
  }),
  complete: defineOperation({
    tag,
    summary: 'Complete a Replay item',
    auth: 'write',
    input: replayCompletionSchema,
    output: replayResultSchema,
    rest: { method: 'POST', path: '/api/replay', problems: [404, 409] },
    handler: (ctx, { itemId, ...evidence }) => completeItem(ctx, ctx.principal.userId, itemId, evidence),
  }),
  undo: defineOperation({
    tag,
    summary: 'Undo the last rating of your latest Replay session',
    auth: 'write',
    input: replayUndoSchema,
    output: replayUndoResultSchema,
    rest: { method: 'POST', path: '/api/replay/undo', problems: [404, 409] },
    handler: (ctx, { itemId }) => undoLastRating(ctx, ctx.principal.userId, itemId),
  }),
  forecast: defineOperation({
    tag,
    summary: 'Replay workload: due now, next due time, due per day for 14 days',
    auth: 'read',
    input: noInput,
    output: replayForecastSchema,
    rest: { method: 'GET', path: '/api/replay/forecast' },
    handler: async (ctx) => {
      const f = await replayForecast(ctx, ctx.principal.userId);
      return { ...f, nextDueAt: f.nextDueAt?.toISOString() ?? null };
    },
  }),
  reviews: defineOperation({
    tag,
    summary: 'A card’s Replay reviews, newest first',
    auth: 'read',
    input: cardReviewsQuerySchema,
    output: cardReviewsSchema,
    rest: { method: 'GET', path: '/api/replay/reviews', problems: [404] },
    handler: (ctx, { cardId }) => cardReviews(ctx, ctx.principal.userId, cardId),
  }),
  settings: defineOperation({
    tag,
    summary: 'Your Replay settings',
    auth: 'read',
    input: noInput,
    output: replaySettingsViewSchema,
    rest: { method: 'GET', path: '/api/replay/settings' },
    handler: (ctx) => settingsView(ctx, ctx.principal.userId),
  }),
  updateSettings: defineOperation({
    tag,
    summary: 'Change your Replay settings (desired retention)',
    auth: 'write',
    input: replaySettingsSchema,
    output: replaySettingsViewSchema,
    rest: { method: 'PUT', path: '/api/replay/settings' },
    handler: async (ctx, { desiredRetention }) => {
      await updateReplaySettings(ctx, ctx.principal.userId, desiredRetention);
      return settingsView(ctx, ctx.principal.userId);
    },
  }),
  optimise: defineOperation({
    tag,
    summary: 'Fit your own FSRS weights now (they apply only if they predict your recent reviews better)',
    auth: 'write',
    input: noInput,
    output: optimisationQueuedSchema,
    rest: { method: 'POST', path: '/api/replay/optimise', status: 202, problems: [409] },
    handler: (ctx) => requestOptimisation(ctx, ctx.principal.userId),
  }),
};
