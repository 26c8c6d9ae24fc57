import { featureContexts, type FeatureContext, type FeatureServices } from '../features/context.ts';
import { activityLog } from './background-call.ts';
import { createCardEnrichmentActivities } from './card-enrichment.ts';
import { createSentenceActivities } from './sentences.ts';
import { createAudioActivities } from './audio.ts';
import { createHousekeepingActivities } from './housekeeping.ts';
import { createFsrsOptimisationActivities } from './fsrs-optimisation.ts';

/** What activities are built from; the worker passes real clients, tests the same. */
export type ActivityDeps = FeatureServices;

/** The feature context of the activity that runs now: a fresh EntityManager, the activity's log. */
export type ActivityContext = () => FeatureContext;

/** Every activity, built once per worker from its dependencies (Temporal's DI pattern). */
export function createActivities(deps: ActivityDeps) {
  const contexts = featureContexts(deps);
  const context: ActivityContext = () => contexts(activityLog);
  return {
    ...createCardEnrichmentActivities(context),
    ...createSentenceActivities(context),
    ...createAudioActivities(deps, context),
    ...createHousekeepingActivities(deps),
    ...createFsrsOptimisationActivities(context),
  };
}

export type Activities = ReturnType<typeof createActivities>;
