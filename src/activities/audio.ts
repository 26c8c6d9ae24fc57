import { ApplicationFailure } from '@temporalio/activity';
import { storeGeneratedAudio, markAudioFailed, pendingGeneration } from '../services/audio.ts';
import { SpeechError, speechEngineFor } from '../services/speech/engine.ts';
import type { ActivityDeps } from './index.ts';

/** Error type of a synthesis that trying again cannot fix (the workflow does not retry it). */
export const SPEECH_REJECTED = 'SpeechRejected';

/** Audio generation: idempotent steps over the clip row; the text never leaves the database. */
export function createAudioActivities(deps: ActivityDeps) {
  const engine = speechEngineFor(deps.config.tts);
  return {
    /** Speaks the clip's text and stores the bytes (charging the requester); a no-op once done. */
    async generateAudioClip(audioId: string): Promise<void> {
      const em = deps.orm.em.fork();
      const job = await pendingGeneration(em, audioId);
      if (!job) return; // already ready or failed, or the clip is gone
      if (job.engine !== engine.engine || job.voice !== engine.voice || job.model !== engine.model) {
        throw ApplicationFailure.create({ type: SPEECH_REJECTED, message: 'speech engine configuration changed', nonRetryable: true });
      }
      let audio;
      try {
        audio = await engine.synthesise(job.text);
      } catch (error) {
        if (!(error instanceof SpeechError)) throw error;
        throw ApplicationFailure.create({ type: error.retryable ? 'SpeechFailed' : SPEECH_REJECTED, message: error.message, nonRetryable: !error.retryable });
      }
      await storeGeneratedAudio(em, job, audio, engine.costUsd(job.text));
    },
    async markAudioClipFailed(audioId: string, errorCode: string): Promise<void> {
      await markAudioFailed(deps.orm.em.fork(), audioId, errorCode);
    },
  };
}
