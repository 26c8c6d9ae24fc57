import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { providerAttempts } from '../../../src/domain/retry-policy.ts';
import { workflowId, WORKFLOW_KINDS } from '../../../src/temporal/workflow-ids.ts';
import { generateAudio } from '../../../src/workflows/audio.ts';
import { attempt, expectFailedWith, failsWith, outcomeOf, runWithWorker, settle, useTimeSkipping, type MockActivities } from './support.ts';

// src/workflows/audio.ts with its activities mocked, on Temporal's time-skipping test server.
const env = useTimeSkipping();

function run(activities: MockActivities) {
  const audioId = randomUUID();
  return runWithWorker(env(), activities, async (client, taskQueue) => {
    const handle = await client.workflow.start(generateAudio, { taskQueue, workflowId: workflowId(WORKFLOW_KINDS.audio, audioId), args: [audioId] });
    const result = await settle(handle.result());
    return { handle, audioId, ...result };
  });
}

const marker = () => vi.fn(async (_audioId: string, _code: string) => {});

describe('audio generation', () => {
  it('ready: one activity, completes with nothing', async () => {
    const generateAudioClip = vi.fn(async () => {});
    const markAudioClipFailed = marker();
    const { value, audioId } = await run({ generateAudioClip, markAudioClipFailed });
    expect(value).toBeUndefined();
    expect(generateAudioClip).toHaveBeenCalledExactlyOnceWith(audioId);
    expect(markAudioClipFailed).not.toHaveBeenCalled();
  });

  it('a speech provider outage is waited out for half an hour, then the clip is marked failed and the run FAILED', async () => {
    const generateAudioClip = vi.fn(async () => failsWith('service_unavailable'));
    const markAudioClipFailed = marker();
    const { handle, error, audioId } = await run({ generateAudioClip, markAudioClipFailed });
    const failure = expectFailedWith(error, 'service_unavailable');
    // The run's failure keeps the activity's as its cause, for the Web UI.
    expect(failure.cause.cause).toMatchObject({ name: 'ActivityFailure', cause: { name: 'ApplicationFailure', type: 'service_unavailable' } });
    expect(generateAudioClip).toHaveBeenCalledTimes(providerAttempts());
    expect(markAudioClipFailed).toHaveBeenCalledExactlyOnceWith(audioId, 'service_unavailable');
    expect(await outcomeOf(handle)).toBe('service_unavailable');
  });

  it('the database back within the retries: the clip is generated', async () => {
    const generateAudioClip = vi.fn(async () => {
      if (attempt() < 10) failsWith('database_unreachable');
    });
    const markAudioClipFailed = marker();
    const { value } = await run({ generateAudioClip, markAudioClipFailed });
    expect(value).toBeUndefined();
    expect(generateAudioClip).toHaveBeenCalledTimes(10);
    expect(markAudioClipFailed).not.toHaveBeenCalled();
  });

  it('a rejected request (a verdict) is not retried', async () => {
    const generateAudioClip = vi.fn(async () => failsWith('invalid_request'));
    const markAudioClipFailed = marker();
    const { error, audioId } = await run({ generateAudioClip, markAudioClipFailed });
    expectFailedWith(error, 'invalid_request');
    expect(generateAudioClip).toHaveBeenCalledTimes(1);
    expect(markAudioClipFailed).toHaveBeenCalledExactlyOnceWith(audioId, 'invalid_request');
  });

  it('no credits is a business outcome: the clip marked failed, the run completes, tagged LcsOutcome', async () => {
    const markAudioClipFailed = marker();
    const { handle, value, audioId } = await run({ generateAudioClip: async () => failsWith('insufficient_credits'), markAudioClipFailed });
    expect(value).toBeUndefined();
    expect(markAudioClipFailed).toHaveBeenCalledExactlyOnceWith(audioId, 'insufficient_credits');
    expect((await handle.describe()).status.name).toBe('COMPLETED');
    expect(await outcomeOf(handle)).toBe('insufficient_credits');
  });
});
