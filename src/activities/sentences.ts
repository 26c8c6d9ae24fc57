import type { ActivityDeps } from './index.ts';

/** Issue #4: this area's activities; idempotent, thin over the services. */
export function createSentenceActivities(deps: ActivityDeps) {
  void deps;
  return {};
}
