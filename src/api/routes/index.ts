import type { App, AppDeps } from '../deps.ts';

/** Feature areas (library, sentences, page translation, replay, audio, work) register here. */
export async function featureRoutes(app: App, deps: AppDeps) {
  void app;
  void deps;
}
