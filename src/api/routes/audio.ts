import type { App, AppDeps } from '../deps.ts';

/** Issue #5: REST routes of this area, and its section of the API reference. */
export async function audioRoutes(app: App, deps: AppDeps) {
  void app;
  void deps;
}

export const audioReference = '';
