import { translatePage } from '../../features/translation/service.ts';
import { pageTranslationRequestSchema } from '../../features/translation/schemas.ts';
import { modelProcedure, router } from './init.ts';

/**
 * The web page's page translation; same service and rules as /api/immersive-translate. tRPC has
 * no response headers, so a replay is reported as `replayed: true` next to the response.
 */
export const pageTranslationRouter = router({
  translate: modelProcedure.input(pageTranslationRequestSchema).mutation(async ({ ctx, input }) => {
    const { response, replayed } = await translatePage(ctx.deps, ctx.principal.userId, input);
    return { ...response, replayed };
  }),
});
