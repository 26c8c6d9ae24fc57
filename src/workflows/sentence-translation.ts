import { proxyActivities } from '@temporalio/workflow';
import type { createSentenceActivities } from '../activities/sentences.ts';
import { catalogFailureOf, LONG_CALL, RECORD_RETRY } from '../temporal/failures.ts';
import { outcomeOfFailure } from './outcome.ts';

type SentenceActivities = ReturnType<typeof createSentenceActivities>;

// Output that failed validation or refused routing is final at once; a provider outage is
// retried briefly, the database for minutes (src/domain/retry-policy.ts).
const { translateSentence } = proxyActivities<SentenceActivities>(LONG_CALL);

const { markSentenceFailed } = proxyActivities<SentenceActivities>({ startToCloseTimeout: '30 seconds', retry: RECORD_RETRY });

/**
 * `sentence-translation/<sentenceId>`: translates one attempt of a saved sentence. Ids in, nothing
 * out. When the translation fails for good, the sentence is marked failed with a catalog code and
 * the workflow ends FAILED with that code, so that a later retry may start the same workflow id
 * again; out of credits, it ends Completed with that outcome (src/workflows/outcome.ts).
 */
export async function sentenceTranslationWorkflow(sentenceId: string, attempt: number): Promise<void> {
  try {
    await translateSentence(sentenceId, attempt);
  } catch (error) {
    const { code } = catalogFailureOf(error);
    await markSentenceFailed(sentenceId, attempt, code);
    outcomeOfFailure({ code, message: `sentence translation failed: ${code}` });
  }
}
