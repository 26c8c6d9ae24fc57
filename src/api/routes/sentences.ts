import type { App, AppDeps } from '../deps.ts';

/** Issue #4: REST routes of this area, and its section of the API reference. */
export async function sentenceRoutes(app: App, deps: AppDeps) {
  void app;
  void deps;
}

export const sentencesReference = '';
