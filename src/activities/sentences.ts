import type { ProblemCode } from '../domain/problems.ts';
import { markSentenceFailed, translateSentence } from '../features/sentences/service.ts';
import { whileHeartbeating } from './background-call.ts';
import { activityFailure } from '../temporal/activity-failure.ts';
import type { ActivityContext } from './index.ts';

export function createSentenceActivities(context: ActivityContext) {
  return {
    /** Translates and charges one attempt; a no-op when that attempt is already settled. */
    async translateSentence(sentenceId: string, attempt: number): Promise<void> {
      await whileHeartbeating(async (call) => {
        try {
          await translateSentence(context(), sentenceId, attempt, call);
        } catch (error) {
          throw activityFailure(error);
        }
      });
    },
    async markSentenceFailed(sentenceId: string, attempt: number, code: ProblemCode): Promise<void> {
      await markSentenceFailed(context(), sentenceId, attempt, code);
    },
  };
}
