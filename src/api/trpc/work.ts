import { draftWork } from '../../features/work/service.ts';
import { workRequestSchema, workResponseSchema } from '../../features/work/schemas.ts';
import { modelProcedure, router } from './init.ts';

/** The Output Flow for the web page: same rules and domain code as POST /api/work. */
export const workRouter = router({
  draft: modelProcedure
    .input(workRequestSchema)
    .output(workResponseSchema)
    .mutation(({ ctx, input }) =>
      draftWork(ctx.em, ctx.deps.model, { userId: ctx.principal.userId, ...input, nativeLanguage: ctx.languages.nativeLanguage })),
});
