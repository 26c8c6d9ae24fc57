import { z } from 'zod';
import { AppError } from '../../domain/problems.ts';
import { libraryMaxCards } from '../../domain/plans.ts';
import { defineOperation, defineStreamOperation, noInput, restParts, type StreamedAnswer, type StreamedResponse } from '../../http/operation.ts';
import { rejectCorrection } from './correction.ts';
import { recordEncounters } from './encounters.ts';
import { etagMatches, exportFormatSchema, exportHeadersSchema, exportInputSchema, exportLibrary, type LibraryExport } from './export.ts';
import { knownExpressions, libraryVersion } from './known-expressions.ts';
import { decodeCursor } from './listing.ts';
import {
  capturedSchema,
  capturedInContextSchema,
  captureResultSchema,
  captureSchema,
  cardEnvelopeSchema,
  cardIdInputSchema,
  deleteBodySchema,
  deleteQuerySchema,
  deletedSchema,
  ENCOUNTERS_DESCRIPTION,
  encounterBatchSchema,
  encountersRecordedSchema,
  knownExpressionsInputSchema,
  knownExpressionsSchema,
  listQuerySchema,
  listSchema,
  preparationSettingsSchema,
  prepareSenseBodySchema,
  prepareSenseSchema,
  retryPreparationSchema,
  reusedSchema,
} from './schemas.ts';
import { prepareOnRenewal, setPrepareOnRenewal } from './renewal.ts';
import { captureCard, deleteCard, getCardForUser, listCards, prepareAgain, prepareSense, retryPreparation } from './service.ts';

const textBody = { schema: z.string().meta({ description: 'UTF-8 text, streamed' }) };

/** The export's answer in the API reference: a file, in its format's media type. */
const exportResponses: Record<number, StreamedResponse | z.ZodType> = {
  200: {
    description: 'The file (Content-Disposition: attachment)',
    content: { 'text/csv': textBody, 'text/tab-separated-values': textBody, 'text/plain': textBody },
  },
  304: z.null().meta({ description: 'Not modified: the ETag sent in If-None-Match is current (no body).' }),
};

/** The export on the wire: the file as an attachment, or 304 with no body while the client's copy is current. */
const exportAnswer = ({ cache, file }: LibraryExport): StreamedAnswer =>
  file
    ? {
        headers: { 'content-type': `${file.mediaType}; charset=utf-8`, 'content-disposition': `attachment; filename="${file.name}"`, ...cache },
        body: file.body,
      }
    : { status: 304, headers: cache, body: Buffer.alloc(0) };

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

/** The library (cards) at /api/library and tRPC `library.*`. */
export const libraryOperations = {
  capture: defineOperation({
    tag,
    summary: 'Capture an expression (preparation follows in the background)',
    auth: 'write',
    modelBacked: true,
    requiresLanguages: true,
    input: captureSchema,
    output: captureResultSchema,
    // A new card is 202 (its preparation is under way), a reused one 200 with `reused: true`.
    rest: {
      method: 'POST',
      path: '/api/library',
      status: ({ reused }) => (reused ? 200 : 202),
      responses: { 202: capturedInContextSchema, 200: reusedSchema },
      problems: [409, 428],
      links: { 202: cardLinks, 200: cardLinks },
      description:
        `A library holds at most the cards its plan allows (by default ${libraryMaxCards.free.toLocaleString('en')} on the free plan, ` +
        `${libraryMaxCards.paid.toLocaleString('en')} on the paid one): a new expression past it is 409 \`library_full\` with \`limit\`, \`cards\` and ` +
        `\`room\`; an expression already in the library is still answered 200.`,
    },
    handler: (ctx, { text, context, sourceUrl }) => captureCard(ctx, ctx.principal.userId, text, { context, sourceUrl }),
  }),
  list: defineOperation({
    tag,
    summary: 'List and search the library, newest first',
    auth: 'read',
    input: listQuerySchema,
    output: listSchema,
    rest: { method: 'GET', path: '/api/library' },
    handler: (ctx, { query, cursor, limit, sort }) =>
      listCards(ctx, ctx.principal.userId, { query, cursor: cursor ? decodeCursor(cursor) : null, limit, sort }),
  }),
  get: defineOperation({
    tag,
    summary: 'One card with its scheduling',
    auth: 'read',
    input: cardIdInputSchema,
    output: cardEnvelopeSchema,
    rest: { method: 'GET', path: '/api/library/:cardId', input: 'params', problems: [404] },
    handler: async (ctx, { cardId }) => ({ card: await getCardForUser(ctx, ctx.principal.userId, cardId) }),
  }),
  retryPreparation: defineOperation({
    tag,
    summary: 'Prepare a failed card again',
    auth: 'write',
    modelBacked: true,
    requiresLanguages: true,
    input: retryPreparationSchema,
    output: capturedSchema,
    rest: { method: 'PATCH', path: '/api/library', status: 202, problems: [404, 409, 428] },
    handler: async (ctx, { cardId }) => ({ card: await retryPreparation(ctx, ctx.principal.userId, cardId) }),
  }),
  prepareSense: defineOperation({
    tag,
    summary: 'Prepare the card again for the sense one of its contexts uses (charged)',
    auth: 'write',
    modelBacked: true,
    requiresLanguages: true,
    input: prepareSenseSchema,
    output: capturedSchema,
    rest: {
      method: 'POST',
      path: '/api/library/:cardId/sense',
      input: restParts({
        params: cardIdInputSchema,
        body: prepareSenseBodySchema,
        toInput: ({ params, body }) => ({ cardId: params.cardId, contextId: body.contextId }),
      }),
      status: 202,
      problems: [404, 409, 428],
      description:
        'When a sentence you met the expression in uses another sense than the one the card explains ("bank" of a river, not of money), this prepares the ' +
        'card for that sentence: translation, usage and focuses are replaced, and the preparation is charged like a capture’s. The card is pending until ' +
        'it is ready again; its schedule and reviews stay. 409 when the card is not ready, is already prepared for this context, or the context is not ' +
        'one of the card’s.',
    },
    handler: async (ctx, { cardId, contextId }) => ({ card: await prepareSense(ctx, ctx.principal.userId, cardId, contextId) }),
  }),
  prepareAgain: defineOperation({
    tag,
    summary: 'Prepare a ready card again with the current language model (charged)',
    auth: 'write',
    modelBacked: true,
    requiresLanguages: true,
    input: cardIdInputSchema,
    output: capturedSchema,
    rest: {
      method: 'POST',
      path: '/api/library/:cardId/prepare-again',
      input: 'params',
      status: 202,
      problems: [404, 409, 428],
      description:
        'A card records the model that prepared it (`preparedByModel`). This prepares it again with the deployment’s current model, for the same ' +
        'context if it had one: translation, usage and focuses are replaced, and the preparation is charged like a capture’s. The card is pending until ' +
        'it is ready again; its schedule and reviews stay. 409 when the card is not ready (a failed card is retried instead).',
    },
    handler: async (ctx, { cardId }) => ({ card: await prepareAgain(ctx, ctx.principal.userId, cardId) }),
  }),
  recordEncounters: defineOperation({
    tag,
    summary: 'Record that you met your expressions on a page (opt-in; card ids and times only)',
    auth: 'write',
    input: encounterBatchSchema,
    output: encountersRecordedSchema,
    rest: { method: 'POST', path: '/api/encounters', problems: [404], description: ENCOUNTERS_DESCRIPTION },
    handler: (ctx, { pageViewId, encounters }) =>
      recordEncounters(ctx, ctx.principal.userId, { pageViewId, encounters: encounters.map((e) => ({ cardId: e.cardId, metAt: new Date(e.metAt) })) }),
  }),
  rejectCorrection: defineOperation({
    tag,
    summary: 'Reject a quiet correction: the card keeps your text',
    auth: 'write',
    input: cardIdInputSchema,
    output: cardEnvelopeSchema,
    rest: { method: 'DELETE', path: '/api/library/:cardId/correction', input: 'params', problems: [404, 409] },
    handler: async (ctx, { cardId }) => ({ card: await rejectCorrection(ctx, ctx.principal.userId, cardId) }),
  }),
  /**
   * The learner's card texts, normalised, for clients that mark what the learner already knows on
   * a page (src/features/library/known-expressions.ts). An ETag makes a repeat free.
   */
  knownExpressions: defineOperation({
    tag,
    summary: 'The learner’s card texts, normalised, for marking known expressions on a page',
    auth: 'read',
    input: knownExpressionsInputSchema,
    output: knownExpressionsSchema,
    rest: {
      method: 'GET',
      path: '/api/library/known-expressions',
      description: 'Send the ETag back in `If-None-Match`: while the library is unchanged the answer is 304 with no body.',
      input: restParts({
        headers: z.object({ 'if-none-match': z.string().optional() }),
        toInput: ({ headers }) => ({ ifNoneMatch: headers['if-none-match'] }),
      }),
      responses: { 200: knownExpressionsSchema, 304: z.null().meta({ description: 'Not modified: the ETag sent is current.' }) },
      status: ({ etag }, { ifNoneMatch }) => (etagMatches(ifNoneMatch, etag) ? 304 : 200),
      // private: one learner's list, never for a shared cache; no-cache: revalidate every time.
      headers: ({ etag }): Record<string, string> => ({ etag, 'cache-control': 'private, no-cache' }),
    },
    handler: async (ctx, { ifNoneMatch }) => {
      const etag = await libraryVersion(ctx, ctx.principal.userId);
      if (etagMatches(ifNoneMatch, etag)) return { etag, expressions: [] };
      return { etag, expressions: await knownExpressions(ctx, ctx.principal.userId) };
    },
  }),
  /** REST only: a file, streamed (src/features/library/export.ts). */
  export: defineStreamOperation({
    tag,
    summary: 'Export the library (csv, tsv, Anki) or the review log',
    auth: 'read',
    bucket: 'export',
    input: exportInputSchema,
    rest: {
      method: 'GET',
      path: '/api/library/export',
      description:
        'One export per user at a time (another meanwhile → 429 `rate_limited`, `limit: "export"`), in a rate-limit bucket of its own ' +
        '(RATE_LIMIT_EXPORT_MAX per window); a server busy with other exports answers 503 with Retry-After. Send the ETag back in `If-None-Match`: while ' +
        'the library is unchanged the answer is 304 with no body.',
      input: restParts({
        querystring: exportFormatSchema,
        headers: exportHeadersSchema,
        toInput: ({ query, headers }) => ({ ...query, ifNoneMatch: headers['if-none-match'] }),
      }),
      responses: exportResponses,
    },
    stream: async (ctx, { format, ifNoneMatch }) => exportAnswer(await exportLibrary(ctx, ctx.principal.userId, format, ifNoneMatch)),
  }),
  delete: defineOperation({
    tag,
    summary: 'Delete a card and its learning data (`?cardId=` or JSON body `{cardId}`)',
    auth: 'write',
    input: cardIdInputSchema,
    output: deletedSchema,
    rest: {
      method: 'DELETE',
      path: '/api/library',
      status: 204,
      problems: [404],
      description:
        'Say which card in the query (`?cardId=`) or in a JSON body `{"cardId": …}`; with both, they must be the same (400 otherwise), and with neither → ' +
        '400. OpenAPI cannot relate a parameter to the body, so each is optional below.',
      input: restParts({
        querystring: deleteQuerySchema,
        body: deleteBodySchema,
        toInput: ({ query, body }) => ({ cardId: cardIdFrom(query.cardId, body?.cardId) }),
      }),
    },
    async handler(ctx, { cardId }) {
      await deleteCard(ctx, ctx.principal.userId, cardId);
      return { deleted: true as const };
    },
  }),
  preparationSettings: defineOperation({
    tag,
    summary: 'Whether cards that failed for want of credits are prepared again when the credits renew',
    auth: 'read',
    input: noInput,
    output: preparationSettingsSchema,
    rest: { method: 'GET', path: '/api/settings/preparation' },
    handler: (ctx) => prepareOnRenewal(ctx, ctx.principal.userId),
  }),
  setPreparationSettings: defineOperation({
    tag,
    summary: 'Choose whether cards that failed for want of credits are prepared again when the credits renew',
    auth: 'write',
    input: preparationSettingsSchema,
    output: preparationSettingsSchema,
    rest: { method: 'PUT', path: '/api/settings/preparation' },
    handler: (ctx, { prepareOnRenewal }) => setPrepareOnRenewal(ctx, ctx.principal.userId, prepareOnRenewal),
  }),
};

function cardIdFrom(fromQuery: string | undefined, fromBody: string | undefined): string {
  if (fromQuery && fromBody && fromQuery !== fromBody) {
    throw new AppError('invalid_request', 'cardId is given twice with different values.', { errors: [{ path: 'cardId', message: 'query and body disagree' }] });
  }
  const cardId = fromQuery ?? fromBody;
  if (!cardId)
    throw new AppError('invalid_request', 'Say which card: ?cardId= or a JSON body {"cardId": …}.', { errors: [{ path: 'cardId', message: 'required' }] });
  return cardId;
}
