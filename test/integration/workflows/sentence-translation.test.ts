import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { ACTIVITY_RETRY, PROVIDER_WAIT, providerAttempts, providerSureWaitMs, retryWindowMs } from '../../../src/domain/retry-policy.ts';
import { workflowId, WORKFLOW_KINDS } from '../../../src/temporal/workflow-ids.ts';
import { sentenceTranslationWorkflow } from '../../../src/workflows/sentence-translation.ts';
import { attempt, expectFailedWith, failsWith, hangs, outcomeOf, runWithWorker, settle, timeSkipped, useTimeSkipping, type MockActivities } from './support.ts';

// src/workflows/sentence-translation.ts with its activities mocked, on Temporal's time-skipping test server.
const env = useTimeSkipping();

/** Starts `sentence-translation/<id>` and settles it; `workflowTimeMs` is how long it ran in the server's (skipped) time. */
function run(activities: MockActivities) {
  const sentenceId = randomUUID();
  return runWithWorker(env(), activities, async (client, taskQueue) => {
    const handle = await client.workflow.start(sentenceTranslationWorkflow, {
      taskQueue,
      workflowId: workflowId(WORKFLOW_KINDS.sentenceTranslation, sentenceId),
      args: [sentenceId, 1],
    });
    const result = await settle(handle.result());
    const { startTime, closeTime } = await handle.describe();
    return { handle, sentenceId, ...result, workflowTimeMs: closeTime!.getTime() - startTime.getTime() };
  });
}

const marker = () => vi.fn(async (_sentenceId: string, _attempt: number, _code: string) => {});

describe('sentence translation', () => {
  it('translated: one activity, completes with nothing', async () => {
    const translateSentence = vi.fn(async () => {});
    const markSentenceFailed = marker();
    const { value, sentenceId } = await run({ translateSentence, markSentenceFailed });
    expect(value).toBeUndefined();
    expect(translateSentence).toHaveBeenCalledExactlyOnceWith(sentenceId, 1);
    expect(markSentenceFailed).not.toHaveBeenCalled();
  });

  it('the database away: retried for about ten minutes of workflow time (seconds here), then marked failed and FAILED', async () => {
    const translateSentence = vi.fn(async () => failsWith('database_unreachable'));
    const markSentenceFailed = marker();
    const { result, skippedMs } = await timeSkipped(env(), () => run({ translateSentence, markSentenceFailed }));
    const { handle, sentenceId, error, workflowTimeMs } = result;
    expectFailedWith(error, 'service_unavailable');
    expect(translateSentence).toHaveBeenCalledTimes(ACTIVITY_RETRY.infrastructureAttempts);
    expect(workflowTimeMs).toBeGreaterThanOrEqual(retryWindowMs(ACTIVITY_RETRY.infrastructureAttempts));
    expect(skippedMs).toBeGreaterThanOrEqual(ACTIVITY_RETRY.initialIntervalMs); // the test server did not wait the backoffs out
    expect(markSentenceFailed).toHaveBeenCalledExactlyOnceWith(sentenceId, 1, 'service_unavailable');
    expect(await outcomeOf(handle)).toBe('service_unavailable');
  });

  it('a provider outage longer than half an hour is waited out for 30–41 minutes of workflow time (seconds here), then marked failed', async () => {
    const translateSentence = vi.fn(async () => failsWith('service_unavailable'));
    const markSentenceFailed = marker();
    const { error, sentenceId, workflowTimeMs } = await run({ translateSentence, markSentenceFailed });
    expectFailedWith(error, 'service_unavailable');
    expect(translateSentence).toHaveBeenCalledTimes(providerAttempts());
    expect(workflowTimeMs).toBeGreaterThanOrEqual(PROVIDER_WAIT.windowMs);
    expect(workflowTimeMs).toBeLessThan(41 * 60_000);
    expect(markSentenceFailed).toHaveBeenCalledExactlyOnceWith(sentenceId, 1, 'service_unavailable');
  });

  it('a provider outage of 25 minutes is waited out: the sentence is translated, nothing marked failed', async () => {
    // Fails while the waits made so far add up to less than 25 minutes.
    const translateSentence = vi.fn(async () => {
      if (providerSureWaitMs(attempt()) < 25 * 60_000) failsWith('service_unavailable');
    });
    const markSentenceFailed = marker();
    const { value, workflowTimeMs } = await run({ translateSentence, markSentenceFailed });
    expect(value).toBeUndefined();
    expect(workflowTimeMs).toBeGreaterThanOrEqual(25 * 60_000);
    expect(markSentenceFailed).not.toHaveBeenCalled();
  });

  it('a provider outage that ends in time: the retry translates', async () => {
    const translateSentence = vi.fn(async () => {
      if (attempt() < 3) failsWith('service_unavailable');
    });
    const markSentenceFailed = marker();
    const { value } = await run({ translateSentence, markSentenceFailed });
    expect(value).toBeUndefined();
    expect(translateSentence).toHaveBeenCalledTimes(3);
    expect(markSentenceFailed).not.toHaveBeenCalled();
  });

  it('refused routing is a verdict: no retry, marked failed with its code', async () => {
    const translateSentence = vi.fn(async () => failsWith('privacy_routing_unavailable'));
    const markSentenceFailed = marker();
    const { handle, error, sentenceId } = await run({ translateSentence, markSentenceFailed });
    expectFailedWith(error, 'privacy_routing_unavailable');
    expect(translateSentence).toHaveBeenCalledTimes(1);
    expect(markSentenceFailed).toHaveBeenCalledExactlyOnceWith(sentenceId, 1, 'privacy_routing_unavailable');
    expect(await outcomeOf(handle)).toBe('privacy_routing_unavailable');
  });

  it('a call that never answers (its worker died) is noticed by the heartbeat timeout and tried again', async () => {
    // The test server skips no time while an activity runs: this one waits the real 10 s.
    const translateSentence = vi.fn(async () => {
      if (attempt() === 1) await hangs();
    });
    const { value, workflowTimeMs } = await run({ translateSentence, markSentenceFailed: marker() });
    expect(value).toBeUndefined();
    expect(translateSentence).toHaveBeenCalledTimes(2);
    expect(workflowTimeMs).toBeGreaterThanOrEqual(10_000);
  });

  it('no credits is a business outcome: marked failed, the run completes, tagged LcsOutcome', async () => {
    const markSentenceFailed = marker();
    const { handle, value, sentenceId } = await run({ translateSentence: async () => failsWith('insufficient_credits'), markSentenceFailed });
    expect(value).toBeUndefined();
    expect(markSentenceFailed).toHaveBeenCalledExactlyOnceWith(sentenceId, 1, 'insufficient_credits');
    expect((await handle.describe()).status.name).toBe('COMPLETED');
    expect(await outcomeOf(handle)).toBe('insufficient_credits');
  });
});
