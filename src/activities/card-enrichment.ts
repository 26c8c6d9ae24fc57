import type { EnrichmentError, EnrichmentOutcome } from '../features/library/preparation-rules.ts';
import { type EnrichmentRef, enrichCard, recordEnrichmentFailure } from '../features/library/preparation.ts';
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
    async prepareCardEnrichment(ref: EnrichmentRef): Promise<EnrichmentOutcome> {
      return whileHeartbeating(async (call, context) => {
        try {
          return await enrichCard(orm.em.fork(), model, ref, call, (message, meta) => { context.log.warn(message, meta); });
        } catch (error) {
          if (context.cancellationSignal.aborted) throw error;
          throw activityFailure(error);
        }
      });
    },

    async recordCardEnrichmentFailure(ref: EnrichmentRef, error: EnrichmentError): Promise<void> {
      await recordEnrichmentFailure(orm.em.fork(), ref, error);
    },
  };
}
