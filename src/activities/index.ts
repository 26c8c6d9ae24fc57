import { featureContexts, type FeatureServices } from '../features/context.ts';
import { createCardEnrichmentActivities } from './card-enrichment.ts';
import { createSentenceActivities } from './sentences.ts';
import { createAudioActivities } from './audio.ts';
import { createHousekeepingActivities } from './housekeeping.ts';
import { createFsrsOptimisationActivities } from './fsrs-optimisation.ts';
import { createLibraryImportActivities } from './library-import.ts';

/** What activities are built from; the worker passes real clients, tests the same. */
export type ActivityDeps = FeatureServices;

/** Every activity, built once per worker from its dependencies (Temporal's DI pattern). */
export function createActivities(deps: ActivityDeps) {
  // Each activity run makes its own context: `contexts(activityLog)`, a fresh EntityManager and the activity's log.
  const contexts = featureContexts(deps);
  return {
    ...createCardEnrichmentActivities(contexts),
    ...createSentenceActivities(contexts),
    ...createAudioActivities(deps, contexts),
    ...createHousekeepingActivities(deps),
    ...createFsrsOptimisationActivities(contexts),
    ...createLibraryImportActivities(contexts),
  };
}

export type Activities = ReturnType<typeof createActivities>;
