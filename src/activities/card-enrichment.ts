import type { PreparationError, PreparationOutcome } from '../features/library/preparation-rules.ts';
import { type PreparationRef, prepareCard, recordPreparationFailure } from '../features/library/preparation.ts';
import { activityFailure } from '../temporal/activity-failure.ts';
import { whileHeartbeating } from './background-call.ts';
import type { ActivityDeps } from './index.ts';

/**
 * The card-enrichment workflow's activities. Their names are Temporal activity types, recorded in
 * every run's history: renaming one breaks the replay of runs open at deploy, so they stay.
 */
export function createCardEnrichmentActivities({ orm, model }: ActivityDeps) {
  return {
    /** One attempt at enriching a card; a cancellation (card deleted) reaches the model call. */
    async prepareCardEnrichment(ref: PreparationRef): Promise<PreparationOutcome> {
      return whileHeartbeating(async (call, context) => {
        try {
          return await prepareCard(orm.em.fork(), model, ref, call, (message, meta) => { context.log.warn(message, meta); });
        } catch (error) {
          if (context.cancellationSignal.aborted) throw error;
          throw activityFailure(error);
        }
      });
    },

    async recordCardEnrichmentFailure(ref: PreparationRef, error: PreparationError): Promise<void> {
      await recordPreparationFailure(orm.em.fork(), ref, error);
    },
  };
}
