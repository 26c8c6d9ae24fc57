import type { ActivityDeps } from './index.ts';

/** Issue #3: this area's activities; idempotent, thin over the services. */
export function createLibraryActivities(deps: ActivityDeps) {
  void deps;
  return {};
}
