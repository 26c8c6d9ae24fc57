import { ApplicationFailure } from '@temporalio/common';
import { isAppError } from '../domain/problems.ts';
import { markSentenceFailed, translateSentence } from '../services/sentences.ts';
import type { ActivityDeps } from './index.ts';

/** Provider failures that another attempt cannot fix (or that cost money to retry blindly). */
export const FINAL_TRANSLATION_FAILURES = ['provider_output_invalid', 'privacy_routing_unavailable', 'insufficient_credits'] as const;

/**
 * A catalog error crosses into Temporal as an ApplicationFailure whose `type` is its code, so the
 * workflow can record the code and the retry policy can tell transient from final failures.
 * Messages come from our catalog and carry no user text.
 */
function toFailure(error: unknown): unknown {
  if (!isAppError(error)) return error;
  return ApplicationFailure.create({
    message: error.message,
    type: error.code,
    nonRetryable: (FINAL_TRANSLATION_FAILURES as readonly string[]).includes(error.code),
  });
}

export function createSentenceActivities(deps: ActivityDeps) {
  return {
    /** Translates and charges one attempt; a no-op when that attempt is already settled. */
    async translateSentence(sentenceId: string, attempt: number): Promise<void> {
      try {
        await translateSentence(deps, sentenceId, attempt);
      } catch (error) {
        throw toFailure(error);
      }
    },
    async markSentenceFailed(sentenceId: string, attempt: number, code: string): Promise<void> {
      await markSentenceFailed(deps.orm.em.fork(), sentenceId, attempt, code);
    },
  };
}
