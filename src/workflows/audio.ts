import { ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import { catalogFailureOf, LONG_CALL, RECORD_RETRY } from './failures.ts';

// A speech provider outage is retried briefly, a rejected request (credentials, bad input) not
// at all, the database for minutes (src/domain/retry-policy.ts).
const { generateAudioClip } = proxyActivities<Activities>(LONG_CALL);
const { markAudioClipFailed } = proxyActivities<Activities>({ startToCloseTimeout: '30 seconds', retry: RECORD_RETRY });

/**
 * `audio/<audioId>`: generates one clip, id in, nothing out. A failure is recorded on the clip with a
 * catalog code and the workflow ends FAILED, so a later request for the same text may run
 * `audio/<audioId>` again.
 */
export async function generateAudio(audioId: string): Promise<void> {
  try {
    await generateAudioClip(audioId);
  } catch (error) {
    const { code } = catalogFailureOf(error);
    await markAudioClipFailed(audioId, code);
    throw ApplicationFailure.create({ message: 'audio generation failed', type: 'AudioGenerationFailed', nonRetryable: true, cause: error as Error });
  }
}
