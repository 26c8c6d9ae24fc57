import { ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';

// Transient provider failures retry quickly; a rejected request (credentials, bad input) does not.
const { generateAudioClip } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 3, nonRetryableErrorTypes: ['SpeechRejected'] },
});
const { markAudioClipFailed } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/**
 * `audio/<key>`: generates one clip, id in, nothing out. A failure is recorded on the clip and
 * the workflow ends FAILED, so a later request for the same text may run `audio/<key>` again.
 */
export async function generateAudio(audioId: string): Promise<void> {
  try {
    await generateAudioClip(audioId);
  } catch (error) {
    await markAudioClipFailed(audioId, 'speech_generation_failed');
    throw ApplicationFailure.create({ message: 'audio generation failed', type: 'AudioGenerationFailed', nonRetryable: true, cause: error as Error });
  }
}
