import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import type { OptimisationOutcome } from '../../../src/features/replay/optimisation-rules.ts';
import { optimisationSchedule } from '../../../src/temporal/schedules.ts';
import { workflowId, WORKFLOW_KINDS } from '../../../src/temporal/workflow-ids.ts';
import { fsrsOptimisationWorkflow } from '../../../src/workflows/fsrs-optimisation.ts';
import { attempt, failsWith, runWithWorker, settle, timeSkipped, useTimeSkipping, type MockActivities } from './support.ts';

// src/workflows/fsrs-optimisation.ts with its activities mocked, on Temporal's time-skipping test
// server: one learner's fit, and the weekly pass its Schedule starts (src/temporal/schedules.ts).
const env = useTimeSkipping();

function fit(activities: MockActivities, userId = randomUUID()) {
  const id = workflowId(WORKFLOW_KINDS.fsrsOptimisation, `${userId}/400-1`);
  return runWithWorker(env(), activities, async (client, taskQueue) => {
    const handle = await client.workflow.start(fsrsOptimisationWorkflow, { taskQueue, workflowId: id, args: [userId] });
    const result = await settle(handle.result());
    return { ...result, userId, id };
  });
}

function weeklyPass(activities: MockActivities) {
  return runWithWorker(env(), activities, async (client, taskQueue) => {
    const { action } = optimisationSchedule(loadConfig({ TEMPORAL_TASK_QUEUE: taskQueue }));
    const handle = await client.workflow.start(action.workflowType, { taskQueue: action.taskQueue, workflowId: action.workflowId, args: action.args });
    return settle<{ queued: number }>(handle.result());
  });
}

const tooFew: OptimisationOutcome = { outcome: 'too_few_reviews', longTermReviews: 12 };

describe('FSRS optimisation', () => {
  it('fits one learner, keyed by its workflow id (a retry finds the first attempt’s version), and returns the figures', async () => {
    const fitLearnerParameters = vi.fn(async (_input: { userId: string; runKey: string }) => tooFew);
    const { value, userId, id } = await fit({ fitLearnerParameters });
    expect(value).toEqual(tooFew);
    expect(fitLearnerParameters).toHaveBeenCalledExactlyOnceWith({ userId, runKey: id });
  });

  it('a failing fit is retried with backoff up to five attempts (minutes, skipped), then the run FAILS with its code', async () => {
    const fitLearnerParameters = vi.fn(async (): Promise<OptimisationOutcome> => failsWith('database_unreachable'));
    const { result, skippedMs } = await timeSkipped(env(), () => fit({ fitLearnerParameters }));
    const { error } = result;
    // The fit's failure is the run's own: the workflow does not catch it.
    expect(error).toMatchObject({ name: 'WorkflowFailedError', cause: { name: 'ActivityFailure', cause: { type: 'service_unavailable' } } });
    expect(fitLearnerParameters).toHaveBeenCalledTimes(5);
    expect(skippedMs).toBeGreaterThanOrEqual(10_000); // 10 + 20 + 40 + 80 s of backoff, skipped: the first at least
  });

  it('a fit that succeeds on a retry returns its figures', async () => {
    const fitLearnerParameters = vi.fn(async (): Promise<OptimisationOutcome> => (attempt() < 3 ? failsWith('internal_error') : tooFew));
    const { value } = await fit({ fitLearnerParameters });
    expect(value).toEqual(tooFew);
    expect(fitLearnerParameters).toHaveBeenCalledTimes(3);
  });

  it('the weekly pass queues the due fits and returns how many', async () => {
    const queueDueOptimisations = vi.fn(async () => ({ queued: 3 }));
    expect(await weeklyPass({ queueDueOptimisations })).toEqual({ value: { queued: 3 } });
    expect(queueDueOptimisations).toHaveBeenCalledTimes(1);
  });

  it('a weekly pass that keeps failing ends FAILED after five attempts', async () => {
    const queueDueOptimisations = vi.fn(async (): Promise<{ queued: number }> => failsWith('database_unreachable'));
    const { error } = await weeklyPass({ queueDueOptimisations });
    expect(error).toMatchObject({ name: 'WorkflowFailedError', cause: { name: 'ActivityFailure', cause: { type: 'service_unavailable' } } });
    expect(queueDueOptimisations).toHaveBeenCalledTimes(5);
  });
});
