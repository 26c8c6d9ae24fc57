import type { ActivityDeps } from './index.ts';

/** Issue #5: this area's activities; idempotent, thin over the services. */
export function createAudioActivities(deps: ActivityDeps) {
  void deps;
  return {};
}
