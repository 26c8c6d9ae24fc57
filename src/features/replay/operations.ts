import { defineOperation } from '../../http/operation.ts';
import { replayCompletionSchema, replayQuerySchema, replayResultSchema, replaySessionSchema } from './schemas.ts';
import { completeItem, openOrResumeSession } from './service.ts';

const tag = 'replay';

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
};
