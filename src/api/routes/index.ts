import type { App, AppDeps } from '../../http/deps.ts';
import { libraryRoutes } from '../../features/library/operations.ts';
import { sentenceRoutes } from '../../features/sentences/operations.ts';
import { pageTranslationRoutes } from '../../features/translation/operations.ts';
import { replayRoutes } from '../../features/replay/operations.ts';
import { audioRoutes } from '../../features/audio/operations.ts';
import { workRoutes } from '../../features/work/operations.ts';

/** Every feature area's REST routes. */
export async function featureRoutes(app: App, deps: AppDeps) {
  await libraryRoutes(app, deps);
  await sentenceRoutes(app, deps);
  await pageTranslationRoutes(app, deps);
  await replayRoutes(app, deps);
  await audioRoutes(app, deps);
  await workRoutes(app, deps);
}
