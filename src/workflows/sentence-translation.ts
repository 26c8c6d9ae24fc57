import { ActivityFailure, ApplicationFailure, proxyActivities, TimeoutFailure } from '@temporalio/workflow';
import type { createSentenceActivities } from '../activities/sentences.ts';

type SentenceActivities = ReturnType<typeof createSentenceActivities>;

// A transient provider failure (service_unavailable) is tried three times in all; output that
// failed validation or refused routing is final at once (see FINAL_TRANSLATION_FAILURES).
const { translateSentence } = proxyActivities<SentenceActivities>({
  startToCloseTimeout: '5 minutes',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '10 seconds',
    maximumAttempts: 3,
    nonRetryableErrorTypes: ['provider_output_invalid', 'privacy_routing_unavailable', 'insufficient_credits'],
  },
});

const { markSentenceFailed } = proxyActivities<SentenceActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/**
 * `sentence-translation/<sentenceId>`: translates one attempt of a saved sentence. Ids in, nothing
 * out. When the translation fails for good, the sentence is marked failed and the workflow ends
 * FAILED, so that a later retry may start the same workflow id again.
 */
export async function sentenceTranslationWorkflow(sentenceId: string, attempt: number): Promise<void> {
  try {
    await translateSentence(sentenceId, attempt);
  } catch (error) {
    const code = failureCode(error);
    await markSentenceFailed(sentenceId, attempt, code);
    throw ApplicationFailure.nonRetryable(`sentence translation failed: ${code}`, 'sentence_translation_failed');
  }
}

function failureCode(error: unknown): string {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure && cause.type) return cause.type;
  if (cause instanceof TimeoutFailure) return 'service_unavailable';
  return 'internal_error';
}
