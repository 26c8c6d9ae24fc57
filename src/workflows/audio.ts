import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import { catalogFailureOf, LONG_CALL, RECORD_RETRY } from '../temporal/failures.ts';
import { outcomeOfFailure } from './outcome.ts';

// A speech provider outage is retried briefly, a rejected request (credentials, bad input) not
// at all, the database for minutes (src/domain/retry-policy.ts).
const { generateAudioClip } = proxyActivities<Activities>(LONG_CALL);
const { markAudioClipFailed } = proxyActivities<Activities>({ startToCloseTimeout: '30 seconds', retry: RECORD_RETRY });

/**
 * `audio/<audioId>`: generates one clip, id in, nothing out. A failure is recorded on the clip with a
 * catalog code and the workflow ends FAILED with that code, so a later request for the same text may
 * run `audio/<audioId>` again; out of credits, it ends Completed with that outcome (src/workflows/outcome.ts).
 */
export async function generateAudio(audioId: string): Promise<void> {
  try {
    await generateAudioClip(audioId);
  } catch (error) {
    const failure = catalogFailureOf(error);
    await markAudioClipFailed(audioId, failure.code);
    outcomeOfFailure({ code: failure.code, message: 'audio generation failed' }, { cause: error });
  }
}
