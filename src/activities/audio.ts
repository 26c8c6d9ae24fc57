import { ApplicationFailure } from '@temporalio/activity';
import type { ProblemCode } from '../domain/problems.ts';
import type { FeatureContext, FeatureContexts } from '../features/context.ts';
import { recordProviderCost, spendReporter } from '../model/provider-spend.ts';
import { storeGeneratedAudio, markAudioFailed, pendingGeneration, speechHold, type PendingGeneration } from '../features/audio/service.ts';
import { withCreditHold } from '../features/credits/paid-call.ts';
import { speechEngineFor } from '../features/audio/speech/configured-engine.ts';
import { SpeechError } from '../features/audio/speech/engine.ts';
import { activityLog, whileHeartbeating } from './background-call.ts';
import { activityFailure } from '../temporal/activity-failure.ts';
import type { ActivityDeps } from './index.ts';

/** Audio generation: idempotent steps over the clip row; the text never leaves the database. */
export function createAudioActivities(deps: ActivityDeps, contexts: FeatureContexts) {
  const engine = speechEngineFor(deps.config.tts);
  const spend = spendReporter(activityLog);

  async function synthesiseAndStore(ctx: FeatureContext, job: PendingGeneration, costUsd: string): Promise<void> {
    let audio;
    try {
      audio = await engine.synthesise(job.text);
    } catch (error) {
      if (!(error instanceof SpeechError)) throw error;
      // The provider's own words, which never quote the spoken text.
      throw activityFailure(error, { code: 'service_unavailable', kind: error.retryable ? 'provider' : 'verdict', message: error.message });
    }
    recordProviderCost('speech', costUsd);
    const stored = await storeGeneratedAudio(ctx, job, audio, costUsd);
    if (!stored && costUsd !== '0') spend.recordUnbilled({ task: 'speech', reason: 'superseded', costUsd });
  }

  return {
    /**
     * Speaks the clip's text and stores the bytes (charging the requester); a no-op once done. A
     * paid generation runs under the requester's credit hold, taken when the clip was requested.
     */
    async generateAudioClip(audioId: string): Promise<void> {
      return whileHeartbeating(async (call) => {
        try {
          const ctx = contexts(activityLog);
          const job = await pendingGeneration(ctx, audioId);
          if (!job) return; // already ready or failed, or the clip is gone
          if (job.engine !== engine.engine || job.voice !== engine.voice || job.model !== engine.model) {
            throw activityFailure(null, { code: 'service_unavailable', kind: 'verdict', message: 'The speech engine configuration changed.' });
          }
          const costUsd = engine.costUsd(job.text);
          if (costUsd === '0' || !job.requestedBy) return await synthesiseAndStore(ctx, job, costUsd);
          // A catalog error of the hold (insufficient_credits) is a verdict: activityFailure ends it at once.
          await withCreditHold(ctx.em, spend, speechHold(job.requestedBy, job.audioId, costUsd), call, () => synthesiseAndStore(ctx, job, costUsd));
        } catch (error) {
          throw error instanceof ApplicationFailure ? error : activityFailure(error);
        }
      });
    },
    async markAudioClipFailed(audioId: string, errorCode: ProblemCode): Promise<void> {
      await markAudioFailed(contexts(activityLog), audioId, errorCode);
    },
  };
}
