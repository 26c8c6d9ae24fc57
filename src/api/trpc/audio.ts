import { getAudio, requestAudio } from '../../features/audio/service.ts';
import { speechEngineFor } from '../../features/audio/speech/engine.ts';
import { subjectOf } from '../../features/audio/operations.ts';
import { audioParamsSchema, audioRequestSchema } from '../../features/audio/schemas.ts';
import { authedProcedure, modelBackedProcedure, router } from './init.ts';

/** Audio for the web page; the bytes themselves are fetched from the REST `url` (range requests). */
export const audioRouter = router({
  request: modelBackedProcedure.input(audioRequestSchema).mutation(async ({ ctx, input }) => {
    const { orm, temporal, config } = ctx.deps;
    const engine = speechEngineFor(config.tts);
    return requestAudio({ orm, temporal, config, engine, logger: ctx.request.log }, ctx.principal.userId, subjectOf(input));
  }),
  get: authedProcedure.input(audioParamsSchema).query(async ({ ctx, input }) => ({ audio: await getAudio(ctx.em, ctx.principal.userId, input.audioId) })),
});
