import { decodeCursor } from './listing.ts';
import { AppError } from '../../domain/problems.ts';
import { defineOperation, restParts, type OperationContext } from '../../http/operation.ts';
import {
  capturedSchema, captureResultSchema, captureSchema, cardEnvelopeSchema, cardIdInputSchema, deleteBodySchema, deleteQuerySchema,
  deletedSchema, listQuerySchema, listSchema, retryPreparationSchema, reusedSchema,
} from './schemas.ts';
import { rejectCorrection } from './correction.ts';
import { knownExpressionsOperation } from './known-expressions.ts';
import { captureCard, deleteCard, enrichmentDispatch, getCardForUser, listCards, retryPreparation } from './service.ts';

const tag = 'library';

/** What a card's answer leads to: reading it, retrying its preparation, deleting it, and its audio. */
const cardId = '$response.body#/card/cardId';
const cardLinks = {
  get: { operationId: 'library.get', parameters: { 'path.cardId': cardId } },
  retryPreparation: { operationId: 'library.retryPreparation', requestBody: { cardId, action: 'refresh_enrichment' } },
  // In the query and the body alike: either alone would meet a generated other of a different value.
  delete: { operationId: 'library.delete', parameters: { 'query.cardId': cardId }, requestBody: { cardId } },
  audio: { operationId: 'audio.request', requestBody: { cardId } },
  rejectCorrection: { operationId: 'library.rejectCorrection', parameters: { 'path.cardId': cardId } },
  reviews: { operationId: 'replay.reviews', parameters: { 'query.cardId': cardId } },
};
const dispatchOf = ({ deps, request }: OperationContext) => enrichmentDispatch(deps, request.log);

/** The library (cards) at /api/library and tRPC `library.*`. */
export const libraryOperations = {
  capture: defineOperation({
    tag, summary: 'Capture an expression (preparation follows in the background)', auth: 'write', modelBacked: true, requiresLanguages: true,
    input: captureSchema, output: captureResultSchema,
    // A new card is 202 (its preparation is under way), a reused one 200 with `reused: true`.
    rest: {
      method: 'POST', path: '/api/library', status: ({ reused }) => (reused ? 200 : 202), responses: { 202: capturedSchema, 200: reusedSchema }, problems: [428],
      links: { 202: cardLinks, 200: cardLinks },
    },
    handler: (ctx, { text }) => captureCard(ctx.em, dispatchOf(ctx), ctx.principal.userId, text),
  }),
  list: defineOperation({
    tag, summary: 'List and search the library, newest first', auth: 'read',
    input: listQuerySchema, output: listSchema,
    rest: { method: 'GET', path: '/api/library' },
    handler: ({ em, principal }, { query, cursor, limit }) => listCards(em, principal.userId, { query, cursor: cursor ? decodeCursor(cursor) : null, limit }),
  }),
  get: defineOperation({
    tag, summary: 'One card with its scheduling', auth: 'read',
    input: cardIdInputSchema, output: cardEnvelopeSchema,
    rest: { method: 'GET', path: '/api/library/:cardId', input: 'params', problems: [404] },
    handler: async ({ em, principal }, { cardId }) => ({ card: await getCardForUser(em, principal.userId, cardId) }),
  }),
  retryPreparation: defineOperation({
    tag, summary: 'Prepare a failed card again', auth: 'write', modelBacked: true, requiresLanguages: true,
    input: retryPreparationSchema, output: capturedSchema,
    rest: { method: 'PATCH', path: '/api/library', status: 202, problems: [404, 409, 428] },
    handler: async (ctx, { cardId }) => ({ card: await retryPreparation(ctx.em, dispatchOf(ctx), ctx.principal.userId, cardId) }),
  }),
  rejectCorrection: defineOperation({
    tag, summary: 'Reject a quiet correction: the card keeps your text', auth: 'write',
    input: cardIdInputSchema, output: cardEnvelopeSchema,
    rest: { method: 'DELETE', path: '/api/library/:cardId/correction', input: 'params', problems: [404, 409] },
    handler: async ({ em, principal }, { cardId }) => ({ card: await rejectCorrection(em, principal.userId, cardId) }),
  }),
  knownExpressions: knownExpressionsOperation,
  delete: defineOperation({
    tag, summary: 'Delete a card and its learning data (`?cardId=` or JSON body `{cardId}`)', auth: 'write',
    input: cardIdInputSchema, output: deletedSchema,
    rest: {
      method: 'DELETE', path: '/api/library', status: 204, problems: [404],
      description: 'Say which card in the query (`?cardId=`) or in a JSON body `{"cardId": …}`; with both, they must be the same (400 otherwise), and with neither → 400. OpenAPI cannot relate a parameter to the body, so each is optional below.',
      input: restParts({ querystring: deleteQuerySchema, body: deleteBodySchema, toInput: ({ query, body }) => ({ cardId: cardIdFrom(query.cardId, body?.cardId) }) }),
    },
    async handler(ctx, { cardId }) {
      await deleteCard(ctx.em, dispatchOf(ctx), ctx.principal.userId, cardId);
      return { deleted: true as const };
    },
  }),
};

function cardIdFrom(fromQuery: string | undefined, fromBody: string | undefined): string {
  if (fromQuery && fromBody && fromQuery !== fromBody) {
    throw new AppError('invalid_request', 'cardId is given twice with different values.', { errors: [{ path: 'cardId', message: 'query and body disagree' }] });
  }
  const cardId = fromQuery ?? fromBody;
  if (!cardId) throw new AppError('invalid_request', 'Say which card: ?cardId= or a JSON body {"cardId": …}.', { errors: [{ path: 'cardId', message: 'required' }] });
  return cardId;
}
