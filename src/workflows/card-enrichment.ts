import { ActivityFailure, ApplicationFailure, TimeoutFailure, isCancellation, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import type { EnrichmentError, PreparationOutcome } from '../domain/library-preparation.ts';
import { problemCatalog } from '../domain/problems.ts';

/** The model call: bounded retries; a dead worker is noticed through the heartbeat timeout. */
const { prepareCardEnrichment } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '10 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '10 seconds',
    maximumAttempts: 4,
    // Kept in step with PREPARATION_NON_RETRYABLE (src/activities/library.ts).
    nonRetryableErrorTypes: ['insufficient_credits', 'privacy_routing_unavailable', 'language_setup_required'],
  },
});

/** Recording the failure is a small database write: retried until it lands. */
const { recordCardEnrichmentFailure } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 50 },
});

export interface CardEnrichmentInput {
  cardId: string;
  /** The card's enrichment_attempt this run prepares (1, then +1 per refresh). */
  attempt: number;
}

/**
 * `card-enrichment/<cardId>`: prepares a captured card. Ids in, ids and codes out. A failed
 * preparation is written to the card and the run then ends FAILED with the same code, so the
 * Web UI shows the cause and a refresh may start a new run under the same id.
 */
export async function cardEnrichment(input: CardEnrichmentInput): Promise<{ cardId: string; outcome: PreparationOutcome['outcome'] }> {
  let result: PreparationOutcome;
  try {
    result = await prepareCardEnrichment(input);
  } catch (error) {
    if (isCancellation(error)) throw error; // the card was deleted
    const failure = enrichmentErrorOf(error);
    await recordCardEnrichmentFailure(input, failure);
    throw ApplicationFailure.nonRetryable(failure.message, failure.code);
  }
  if (result.outcome === 'failed') {
    // A repeated run of an attempt that already failed ends the same way.
    throw ApplicationFailure.nonRetryable(result.error.message, result.error.code);
  }
  return { cardId: input.cardId, outcome: result.outcome };
}

function enrichmentErrorOf(error: unknown): EnrichmentError {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure && cause.type && cause.type in problemCatalog) return { code: cause.type, message: cause.message };
  if (cause instanceof TimeoutFailure) return { code: 'service_unavailable', message: 'The preparation timed out.' };
  return { code: 'internal_error', message: 'The preparation failed unexpectedly.' };
}
