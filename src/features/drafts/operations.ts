import { defineOperation, restParts } from '../../http/operation.ts';
import { draftHeadersSchema, draftInputSchema, draftRequestSchema, draftSchema } from './schemas.ts';
import { createDraft } from './service.ts';

/** Drafts (the spec's Output Flow) at /api/work and tRPC `drafts.create`. */
export const draftOperations = {
  create: defineOperation({
    tag: 'drafts',
    summary: 'Draft English for what you want to say (the spec’s Output Flow)',
    auth: 'write',
    modelBacked: true,
    requiresLanguages: true,
    input: draftInputSchema,
    output: draftSchema,
    rest: {
      method: 'POST',
      path: '/api/work',
      problems: [402, 422, 428, 502, 503],
      input: restParts({
        body: draftRequestSchema,
        headers: draftHeadersSchema,
        toInput: ({ body, headers }) => ({ ...body, idempotencyKey: headers['idempotency-key'] }),
      }),
    },
    handler: (ctx, input) => createDraft(ctx, { ...input, userId: ctx.principal.userId, nativeLanguage: ctx.languages.nativeLanguage }),
  }),
};
