import { isCancellation, patched, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import type { PreparationOutcome } from '../features/library/preparation-rules.ts';
import type { BusinessOutcome } from '../domain/workflow-outcome.ts';
import { catalogFailureOf, LOCAL_LONG_CALL, LONG_CALL, RECORD_RETRY } from '../temporal/failures.ts';
import { outcomeOfFailure, recordOutcome } from './outcome.ts';

/** Runs opened before preparation ran as a local activity replay their activity; new runs take the local one. */
const PREPARED_LOCALLY = 'card-preparation-local-activity';
const remote = proxyActivities<Activities>(LONG_CALL);
const local = proxyLocalActivities<Activities>(LOCAL_LONG_CALL);

const { recordCardEnrichmentFailure } = proxyActivities<Activities>({ startToCloseTimeout: '30 seconds', retry: RECORD_RETRY });

export interface CardEnrichmentInput {
  cardId: string;
  /** The card's enrichment_attempt this run enriches (1, then +1 per retry). */
  attempt: number;
  /**
   * Set by every start since runs stopped asking `patched` (`preparationStart`, src/features/library/preparation.ts):
   * the run prepares in a local activity, with no patch marker and no `TemporalChangeVersion` upsert, two events and a
   * visibility write fewer for the dev server. A run started without it (before, or from an outbox row written
   * before) asks `patched`, as it always did.
   */
  preparesLocally?: true;
}

export type CardEnrichmentResult = { cardId: string; outcome: Exclude<PreparationOutcome['outcome'], 'failed' | 'gone'> | BusinessOutcome };

/**
 * `card-enrichment/<cardId>`: enriches a captured card. Ids in, ids and codes out. A failed
 * enrichment is written to the card; the run then ends FAILED with the same code, so the Web UI
 * shows the cause and a retry may start a new run under the same id, or Completed when the
 * failure is a business outcome (no credits; the card deleted), tagged `LcsOutcome` either way.
 */
export async function cardEnrichment(input: CardEnrichmentInput): Promise<CardEnrichmentResult> {
  const ref = { cardId: input.cardId, attempt: input.attempt };
  let result: PreparationOutcome;
  try {
    result = await (input.preparesLocally === true || patched(PREPARED_LOCALLY) ? local : remote).prepareCardEnrichment(ref);
  } catch (error) {
    // The service cancels a preparation only when its card is deleted (features/library/preparation.ts).
    if (isCancellation(error)) return deleted(input.cardId);
    const failure = catalogFailureOf(error);
    await recordCardEnrichmentFailure(ref, failure);
    return { cardId: input.cardId, outcome: outcomeOfFailure(failure) };
  }
  // A repeated run of an attempt that already failed ends the same way.
  if (result.outcome === 'failed') return { cardId: input.cardId, outcome: outcomeOfFailure(result.error) };
  if (result.outcome === 'gone') return deleted(input.cardId);
  return { cardId: input.cardId, outcome: result.outcome };
}

function deleted(cardId: string): CardEnrichmentResult {
  recordOutcome('deleted');
  return { cardId, outcome: 'deleted' };
}
