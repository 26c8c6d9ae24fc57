import type { EnrichmentError, EnrichmentOutcome } from '../domain/library-enrichment.ts';
import { type EnrichmentRef, enrichCard, recordEnrichmentFailure } from '../features/library/enrichment.ts';
import { whileHeartbeating } from './background-call.ts';
import { activityFailure } from './failures.ts';
import type { ActivityDeps } from './index.ts';

export function createLibraryActivities({ orm, model }: ActivityDeps) {
  return {
    /** One attempt at preparing a card; a cancellation (card deleted) reaches the model call. */
    async prepareCardEnrichment(ref: EnrichmentRef): Promise<EnrichmentOutcome> {
      return whileHeartbeating(async (call, context) => {
        try {
          return await enrichCard(orm.em.fork(), model, ref, call, (message, meta) => context.log.warn(message, meta));
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
