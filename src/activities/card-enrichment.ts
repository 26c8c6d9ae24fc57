import type { PreparationError, PreparationOutcome } from '../features/library/preparation-rules.ts';
import { type PreparationRef, prepareCard, recordPreparationFailure } from '../features/library/preparation.ts';
import { activityFailure } from '../temporal/activity-failure.ts';
import type { FeatureContexts } from '../features/context.ts';
import { activityLog, whileHeartbeating } from './background-call.ts';

/**
 * The card-enrichment workflow's activities: a card's preparation. Their names are Temporal
 * activity types, recorded in every run's history: renaming one breaks the replay of runs open at
 * deploy, so they stay.
 */
export function createCardEnrichmentActivities(contexts: FeatureContexts) {
  return {
    /** One attempt at preparing a card; a cancellation (card deleted) reaches the model call. */
    async prepareCardEnrichment(ref: PreparationRef): Promise<PreparationOutcome> {
      return whileHeartbeating(async (call, activity) => {
        try {
          return await prepareCard(contexts(activityLog), ref, call);
        } catch (error) {
          if (activity.cancellationSignal.aborted) throw error;
          throw activityFailure(error);
        }
      });
    },

    async recordCardEnrichmentFailure(ref: PreparationRef, error: PreparationError): Promise<void> {
      await recordPreparationFailure(contexts(activityLog), ref, error);
    },
  };
}
