import { listSentences, submitSentence } from '../../features/sentences/service.ts';
import { createSentenceInputSchema, listSentencesQuerySchema } from '../../features/sentences/schemas.ts';
import { authedProcedure, modelProcedure, router } from './init.ts';

/** The web page's sentence procedures; same services and rules as /api/sentences. */
export const sentencesRouter = router({
  create: modelProcedure.input(createSentenceInputSchema).mutation(async ({ ctx, input }) => ({
    sentence: await submitSentence(
      { ...ctx.deps, logger: ctx.request.log },
      { userId: ctx.principal.userId, nativeLanguage: ctx.languages.nativeLanguage, text: input.original_text, mode: input.mode },
    ),
  })),
  list: authedProcedure
    .input(listSentencesQuerySchema)
    .query(({ ctx, input }) => listSentences(ctx.em, ctx.principal.userId, input.page, input.pageSize)),
});
