import { accountRouter } from './account.ts';
import { libraryRouter } from './library.ts';
import { sentencesRouter } from './sentences.ts';
import { pageTranslationRouter } from './page-translation.ts';
import { replayRouter } from './replay.ts';
import { audioRouter } from './audio.ts';
import { workRouter } from './work.ts';
import { router } from './init.ts';

/** The first-party web page's API: one sub-router per area. */
export const appRouter = router({
  account: accountRouter,
  library: libraryRouter,
  sentences: sentencesRouter,
  pageTranslation: pageTranslationRouter,
  replay: replayRouter,
  audio: audioRouter,
  work: workRouter,
});

export type AppRouter = typeof appRouter;
