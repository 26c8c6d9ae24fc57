import { ApplicationFailure, Context } from '@temporalio/activity';
import type { EnrichmentError, PreparationOutcome } from '../domain/library-preparation.ts';
import { isAppError } from '../domain/problems.ts';
import { type PreparationRef, prepareCard, recordPreparationFailure } from '../services/card-enrichment.ts';
import type { ActivityDeps } from './index.ts';

/** Failures that another attempt cannot fix: retrying would only repeat them (or their cost). */
export const PREPARATION_NON_RETRYABLE = ['insufficient_credits', 'privacy_routing_unavailable', 'language_setup_required'];

const HEARTBEAT_EVERY_MS = 1_000;

export function createLibraryActivities({ orm, model }: ActivityDeps) {
  return {
    /**
     * One attempt at preparing a card. Heartbeats while the model works, so a worker that dies
     * mid-call is noticed within the heartbeat timeout (not the long start-to-close timeout) and
     * a cancellation (card deleted) reaches the model call.
     */
    async prepareCardEnrichment(ref: PreparationRef): Promise<PreparationOutcome> {
      const context = Context.current();
      const heartbeat = setInterval(() => context.heartbeat(), HEARTBEAT_EVERY_MS);
      try {
        return await prepareCard(orm.em.fork(), model, ref, context.cancellationSignal);
      } catch (error) {
        // Catalog errors travel as ApplicationFailures typed by their stable code; the message
        // is the catalog's detail, which never contains user text.
        if (isAppError(error)) throw ApplicationFailure.create({ type: error.code, message: error.message, nonRetryable: PREPARATION_NON_RETRYABLE.includes(error.code) });
        if (context.cancellationSignal.aborted) throw error;
        // Anything else (a database error…) may quote SQL parameters, i.e. user text: Temporal's
        // history gets a generic failure; the worker log gets the error class only.
        context.log.warn('card preparation attempt failed', { cardId: ref.cardId, attempt: ref.attempt, error: (error as Error)?.name });
        throw ApplicationFailure.create({ type: 'internal_error', message: 'The preparation failed unexpectedly.' });
      } finally {
        clearInterval(heartbeat);
      }
    },

    async recordCardEnrichmentFailure(ref: PreparationRef, error: EnrichmentError): Promise<void> {
      await recordPreparationFailure(orm.em.fork(), ref, error);
    },
  };
}
