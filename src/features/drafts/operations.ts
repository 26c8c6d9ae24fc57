import { defineOperation, restParts } from '../../http/operation.ts';
import { workHeadersSchema, workInputSchema, workRequestSchema, workResponseSchema } from './schemas.ts';
import { draftWork } from './service.ts';

/** Drafts (the spec's Output Flow) at /api/work and tRPC `drafts.create`. */
export const workOperations = {
  create: defineOperation({
    tag: 'drafts', summary: 'Output Flow: draft English for what you want to say', auth: 'write', modelBacked: true, requiresLanguages: true,
    input: workInputSchema, output: workResponseSchema,
    rest: {
      method: 'POST', path: '/api/work', problems: [402, 422, 428, 502, 503],
      input: restParts({ body: workRequestSchema, headers: workHeadersSchema, toInput: ({ body, headers }) => ({ ...body, idempotencyKey: headers['idempotency-key'] }) }),
    },
    handler: ({ em, deps, principal, languages }, input) =>
      draftWork(em, deps.model, { ...input, userId: principal.userId, nativeLanguage: languages.nativeLanguage }),
  }),
};
