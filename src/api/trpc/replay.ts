import { completeItem, openOrResumeSession } from '../../features/replay/service.ts';
import { replayCompletionSchema, replayQuerySchema } from '../../features/replay/schemas.ts';
import { authedProcedure, router } from './init.ts';

/** Replay for the web page: same rules and domain code as GET/POST /api/replay. */
export const replayRouter = router({
  session: authedProcedure
    .input(replayQuerySchema)
    .query(({ ctx, input }) => openOrResumeSession(ctx.em, ctx.principal.userId, input.count)),
  complete: authedProcedure
    .input(replayCompletionSchema)
    .mutation(({ ctx, input }) => {
      const { itemId, ...evidence } = input;
      return completeItem(ctx.em, ctx.principal.userId, itemId, evidence);
    }),
});
