import type { ProblemCode } from '../domain/problems.ts';
import { markSentenceFailed, translateSentence } from '../features/sentences/service.ts';
import type { FeatureContexts } from '../features/context.ts';
import { activityLog, whileHeartbeating } from './background-call.ts';
import { activityFailure } from '../temporal/activity-failure.ts';

export function createSentenceActivities(contexts: FeatureContexts) {
  return {
    /** Translates and charges one attempt; a no-op when that attempt is already settled. */
    async translateSentence(sentenceId: string, attempt: number): Promise<void> {
      await whileHeartbeating(async (call) => {
        try {
          await translateSentence(contexts(activityLog), sentenceId, attempt, call);
        } catch (error) {
          throw activityFailure(error);
        }
      });
    },
    async markSentenceFailed(sentenceId: string, attempt: number, code: ProblemCode): Promise<void> {
      await markSentenceFailed(contexts(activityLog), sentenceId, attempt, code);
    },
  };
}
