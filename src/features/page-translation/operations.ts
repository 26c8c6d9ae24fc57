import { defineOperation } from '../../http/operation.ts';
import { pageTranslationRequestSchema, pageTranslationResponseSchema, pageTranslationResultSchema } from './schemas.ts';
import { translatePage } from './service.ts';

/** Page translation at /api/immersive-translate and tRPC `pageTranslation.translate`. */
export const pageTranslationOperations = {
  translate: defineOperation({
    tag: 'page translation',
    summary: 'Translate a batch of page text',
    auth: 'write',
    modelBacked: true,
    requiresLanguages: true,
    input: pageTranslationRequestSchema,
    output: pageTranslationResultSchema,
    rest: {
      method: 'POST',
      path: '/api/immersive-translate',
      description: 'Idempotent per `request_id`: a repeat returns the stored answer with `Idempotent-Replayed: true` and is not charged.',
      responses: { 200: pageTranslationResponseSchema },
      headers: ({ replayed }): Record<string, string> => (replayed ? { 'idempotent-replayed': 'true' } : {}),
      problems: [402, 409, 422, 428, 502, 503],
    },
    handler: async (ctx, input) => {
      const { response, replayed } = await translatePage(ctx, ctx.principal.userId, input);
      return { ...response, replayed };
    },
  }),
};
