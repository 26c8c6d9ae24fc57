import { isCancellation, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import type { EnrichmentOutcome } from '../domain/library-enrichment.ts';
import { catalogFailure, catalogFailureOf, LONG_CALL, RECORD_RETRY } from '../temporal/failures.ts';

const { prepareCardEnrichment } = proxyActivities<Activities>(LONG_CALL);

const { recordCardEnrichmentFailure } = proxyActivities<Activities>({ startToCloseTimeout: '30 seconds', retry: RECORD_RETRY });

export interface CardEnrichmentInput {
  cardId: string;
  /** The card's enrichment_attempt this run enriches (1, then +1 per refresh). */
  attempt: number;
}

/**
 * `card-enrichment/<cardId>`: enriches a captured card. Ids in, ids and codes out. A failed
 * enrichment is written to the card and the run then ends FAILED with the same code, so the
 * Web UI shows the cause and a refresh may start a new run under the same id.
 */
export async function cardEnrichment(input: CardEnrichmentInput): Promise<{ cardId: string; outcome: EnrichmentOutcome['outcome'] }> {
  let result: EnrichmentOutcome;
  try {
    result = await prepareCardEnrichment(input);
  } catch (error) {
    if (isCancellation(error)) throw error; // the card was deleted
    const failure = catalogFailureOf(error);
    await recordCardEnrichmentFailure(input, failure);
    throw catalogFailure(failure);
  }
  if (result.outcome === 'failed') {
    // A repeated run of an attempt that already failed ends the same way.
    throw catalogFailure(result.error);
  }
  return { cardId: input.cardId, outcome: result.outcome };
}
