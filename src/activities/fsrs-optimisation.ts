import type { OptimisationOutcome } from '../features/replay/optimisation-rules.ts';
import { fitLearnerParameters } from '../features/replay/fitting.ts';
import { queueDueOptimisations } from '../features/replay/optimiser.ts';
import { activityFailure } from '../temporal/activity-failure.ts';
import type { FeatureContexts } from '../features/context.ts';
import { activityLog, whileHeartbeating } from './background-call.ts';

/** The personal FSRS optimiser's activities: one learner's fit, and the weekly pass that queues fits. */
export function createFsrsOptimisationActivities(contexts: FeatureContexts) {
  return {
    /** Keyed by the workflow (`runKey`): a retry returns the version the first attempt stored. */
    async fitLearnerParameters({ userId, runKey }: { userId: string; runKey: string }): Promise<OptimisationOutcome> {
      try {
        return await whileHeartbeating(() => fitLearnerParameters(contexts(activityLog), userId, runKey));
      } catch (error) {
        throw activityFailure(error);
      }
    },

    /** Queues a fit for every learner who is due one (src/features/replay/optimiser.ts). */
    async queueDueOptimisations(): Promise<{ queued: number }> {
      try {
        return await queueDueOptimisations(contexts(activityLog));
      } catch (error) {
        throw activityFailure(error);
      }
    },
  };
}
