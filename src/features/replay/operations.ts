import type { Em } from '../../db/orm.ts';
import { defineOperation, noInput } from '../../http/operation.ts';
import { replayForecast } from './forecast.ts';
import { cardReviews } from './history.ts';
import { replaySettings, updateReplaySettings } from './learner-scheduling.ts';
import { optimisationStatus, requestOptimisation } from './optimiser.ts';
import {
  cardReviewsQuerySchema, cardReviewsSchema, optimisationQueuedSchema, replayCompletionSchema, replayForecastSchema, replayQuerySchema, replayResultSchema,
  replaySessionSchema, replaySettingsSchema, replaySettingsViewSchema, replayUndoResultSchema, replayUndoSchema,
} from './schemas.ts';
import { completeItem, openOrResumeSession } from './service.ts';
import { undoLastRating } from './undo.ts';

const tag = 'replay';

const settingsView = async (em: Em, userId: string) => ({ ...(await replaySettings(em, userId)), personalSchedule: await optimisationStatus(em, userId) });

/** Replay at /api/replay and tRPC `replay.*`; free, so not model-backed. */
export const replayOperations = {
  session: defineOperation({
    tag, summary: 'Open or resume a Replay session', auth: 'read',
    input: replayQuerySchema, output: replaySessionSchema,
    rest: {
      method: 'GET', path: '/api/replay',
      // The first item's completion; a session with no items has nothing to complete.
      links: { 200: { complete: { operationId: 'replay.complete', requestBody: { itemId: '$response.body#/items/0/itemId', usedHint: false, autoFilled: false, unaidedErrors: 0 } } } },
    },
    handler: ({ em, principal }, { count }) => openOrResumeSession(em, principal.userId, count),
  }),
  complete: defineOperation({
    tag, summary: 'Complete a Replay item', auth: 'write',
    input: replayCompletionSchema, output: replayResultSchema,
    rest: { method: 'POST', path: '/api/replay', problems: [404] },
    handler: ({ em, principal }, { itemId, ...evidence }) => completeItem(em, principal.userId, itemId, evidence),
  }),
  undo: defineOperation({
    tag, summary: 'Undo the last rating of your latest Replay session', auth: 'write',
    input: replayUndoSchema, output: replayUndoResultSchema,
    rest: { method: 'POST', path: '/api/replay/undo', problems: [404, 409] },
    handler: ({ em, principal }, { itemId }) => undoLastRating(em, principal.userId, itemId),
  }),
  forecast: defineOperation({
    tag, summary: 'Replay workload: due now, next due time, due per day for 14 days', auth: 'read',
    input: noInput, output: replayForecastSchema,
    rest: { method: 'GET', path: '/api/replay/forecast' },
    handler: async ({ em, principal }) => {
      const f = await replayForecast(em, principal.userId);
      return { ...f, nextDueAt: f.nextDueAt?.toISOString() ?? null };
    },
  }),
  reviews: defineOperation({
    tag, summary: 'A card’s Replay reviews, newest first', auth: 'read',
    input: cardReviewsQuerySchema, output: cardReviewsSchema,
    rest: { method: 'GET', path: '/api/replay/reviews', problems: [404] },
    handler: ({ em, principal }, { cardId }) => cardReviews(em, principal.userId, cardId),
  }),
  settings: defineOperation({
    tag, summary: 'Your Replay settings', auth: 'read',
    input: noInput, output: replaySettingsViewSchema,
    rest: { method: 'GET', path: '/api/replay/settings' },
    handler: ({ em, principal }) => settingsView(em, principal.userId),
  }),
  updateSettings: defineOperation({
    tag, summary: 'Change your Replay settings (desired retention)', auth: 'write',
    input: replaySettingsSchema, output: replaySettingsViewSchema,
    rest: { method: 'PUT', path: '/api/replay/settings' },
    handler: async ({ em, principal }, { desiredRetention }) => {
      await updateReplaySettings(em, principal.userId, desiredRetention);
      return settingsView(em, principal.userId);
    },
  }),
  optimise: defineOperation({
    tag, summary: 'Fit your own FSRS weights now (they apply only if they predict your recent reviews better)', auth: 'write',
    input: noInput, output: optimisationQueuedSchema,
    rest: { method: 'POST', path: '/api/replay/optimise', status: 202, problems: [409] },
    handler: ({ em, deps, principal }) => requestOptimisation(em, deps, principal.userId),
  }),
};
