import type { App, AppDeps } from '../deps.ts';
import { libraryRoutes } from './library.ts';
import { sentenceRoutes } from './sentences.ts';
import { pageTranslationRoutes } from './page-translation.ts';
import { replayRoutes } from './replay.ts';
import { audioRoutes } from './audio.ts';
import { workRoutes } from './work.ts';

/** Every feature area's REST routes. */
export async function featureRoutes(app: App, deps: AppDeps) {
  await libraryRoutes(app, deps);
  await sentenceRoutes(app, deps);
  await pageTranslationRoutes(app, deps);
  await replayRoutes(app, deps);
  await audioRoutes(app, deps);
  await workRoutes(app, deps);
}
