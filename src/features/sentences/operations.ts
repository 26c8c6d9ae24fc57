import { z } from 'zod';
import { defineOperation, restParts } from '../../http/operation.ts';
import { problemSchema } from '../../http/problem-responses.ts';
import {
  createSentenceInputSchema,
  createSentenceQuerySchema,
  createSentenceSchema,
  listSentencesQuerySchema,
  sentenceEnvelopeSchema,
  sentencePageSchema,
} from './schemas.ts';
import { listSentences, submitSentence } from './service.ts';

const tag = 'sentences';

const translationFailedSchema = problemSchema.extend({
  sentenceId: z.string().optional().meta({ description: 'The saved sentence, now with status "failed"; post it again to retry.' }),
});

/** A saved sentence leads to its audio. */
const sentenceLinks = { audio: { operationId: 'audio.request', requestBody: { sentenceId: '$response.body#/sentence/id' } } };

/** Sentences at /api/sentences and tRPC `sentences.*`. */
export const sentenceOperations = {
  create: defineOperation({
    tag,
    summary: 'Save a sentence and translate it into your native language',
    auth: 'write',
    modelBacked: true,
    requiresLanguages: true,
    input: createSentenceInputSchema,
    output: sentenceEnvelopeSchema,
    rest: {
      method: 'POST',
      path: '/api/sentences',
      description: 'Sync by default (200 with the translation). Async (202, status "pending") only with both `?mode=async` and `X-Service-Async: 1`.',
      // tRPC says the mode in its input; REST needs both the query and the header, so that a batch upload asks for it on purpose.
      input: restParts({
        querystring: createSentenceQuerySchema,
        body: createSentenceSchema,
        toInput: ({ query, body, headers }) => ({ ...body, mode: query.mode === 'async' && headers['x-service-async'] === '1' ? 'async' : 'sync' }),
      }),
      status: (_output, { mode }) => (mode === 'async' ? 202 : 200),
      responses: { 200: sentenceEnvelopeSchema, 202: sentenceEnvelopeSchema },
      links: { 200: sentenceLinks, 202: sentenceLinks },
      problems: [402, 428],
      // Extended to document the members these problems add (existingId, sentenceId).
      problemSchemas: {
        409: problemSchema.extend({ existingId: z.string().nullable().optional() }),
        502: translationFailedSchema,
        503: translationFailedSchema,
      },
    },
    handler: async (ctx, { original_text, mode }) => ({
      sentence: await submitSentence(ctx, { userId: ctx.principal.userId, nativeLanguage: ctx.languages.nativeLanguage, text: original_text, mode }),
    }),
  }),
  list: defineOperation({
    tag,
    summary: 'Your sentences, newest first',
    auth: 'read',
    input: listSentencesQuerySchema,
    output: sentencePageSchema,
    rest: { method: 'GET', path: '/api/sentences' },
    handler: (ctx, { page, pageSize }) => listSentences(ctx, ctx.principal.userId, page, pageSize),
  }),
};
