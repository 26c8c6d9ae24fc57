import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { PreparationOutcome } from '../../../src/features/library/preparation-rules.ts';
import { PROVIDER_WAIT, providerAttempts, providerSureWaitMs } from '../../../src/domain/retry-policy.ts';
import { workflowId, WORKFLOW_KINDS } from '../../../src/temporal/workflow-ids.ts';
import { cardEnrichment, type CardEnrichmentInput } from '../../../src/workflows/card-enrichment.ts';
import {
  attempt,
  eventKinds,
  expectFailedWith,
  failsWith,
  outcomeOf,
  runWithWorker,
  settle,
  timeSkipped,
  useTimeSkipping,
  type MockActivities,
} from './support.ts';

// src/workflows/card-enrichment.ts with its activities mocked, on Temporal's time-skipping test server.
const env = useTimeSkipping();

/** As the service starts a run (preparationStart). */
const input = (): CardEnrichmentInput => ({ cardId: randomUUID(), attempt: 1, preparesLocally: true });
/** What the activities are given: the card and its attempt. */
const refOf = ({ cardId, attempt }: CardEnrichmentInput) => ({ cardId, attempt });

/** Starts `card-enrichment/<cardId>` as the outbox relay does, and returns its handle and result. */
function run(activities: MockActivities, card = input()) {
  return runWithWorker(env(), activities, async (client, taskQueue) => {
    const handle = await client.workflow.start(cardEnrichment, { taskQueue, workflowId: workflowId(WORKFLOW_KINDS.cardEnrichment, card.cardId), args: [card] });
    const result = await settle(handle.result());
    return { handle, card, ...result };
  });
}

const prepared = (outcome: PreparationOutcome) => vi.fn(async (_card: CardEnrichmentInput) => outcome);
const recorder = () => vi.fn(async (_card: CardEnrichmentInput, _failure: { code: string; message: string }) => {});

describe('card enrichment', () => {
  it('ready: prepares the card as a local activity and completes with its id and outcome, with no patch marker', async () => {
    const prepareCardEnrichment = prepared({ outcome: 'ready' });
    const recordCardEnrichmentFailure = recorder();
    const { handle, card, value } = await run({ prepareCardEnrichment, recordCardEnrichmentFailure });
    expect(value).toEqual({ cardId: card.cardId, outcome: 'ready' });
    expect(prepareCardEnrichment).toHaveBeenCalledExactlyOnceWith(refOf(card));
    expect(recordCardEnrichmentFailure).not.toHaveBeenCalled();
    // The local activity's marker alone: no activity task, and neither the patch's marker nor its search-attribute upsert.
    expect(await eventKinds(handle)).toEqual([
      'workflowExecutionStarted',
      'workflowTaskScheduled',
      'workflowTaskStarted',
      'workflowTaskCompleted',
      'markerRecorded',
      'workflowExecutionCompleted',
    ]);
    expect(await outcomeOf(handle)).toBeUndefined();
  });

  it('a run started without preparesLocally (an outbox row written before it) asks patched, and prepares locally too', async () => {
    const prepareCardEnrichment = prepared({ outcome: 'ready' });
    const { cardId, attempt } = input();
    const { handle, value } = await run({ prepareCardEnrichment, recordCardEnrichmentFailure: recorder() }, { cardId, attempt });
    expect(value).toEqual({ cardId, outcome: 'ready' });
    expect(prepareCardEnrichment).toHaveBeenCalledExactlyOnceWith({ cardId, attempt });
    const kinds = await eventKinds(handle);
    expect(kinds.filter((kind) => kind === 'markerRecorded')).toHaveLength(2);
    expect(kinds).toContain('upsertWorkflowSearchAttributes');
    expect(kinds).not.toContain('activityTaskScheduled');
  });

  it('superseded by a newer attempt: completes with that outcome, nothing recorded', async () => {
    const recordCardEnrichmentFailure = recorder();
    const { card, value } = await run({ prepareCardEnrichment: prepared({ outcome: 'superseded' }), recordCardEnrichmentFailure });
    expect(value).toEqual({ cardId: card.cardId, outcome: 'superseded' });
    expect(recordCardEnrichmentFailure).not.toHaveBeenCalled();
  });

  it('a provider outage is retried in the worker, then the card is prepared', async () => {
    const prepareCardEnrichment = vi.fn(async (_card: CardEnrichmentInput): Promise<PreparationOutcome> =>
      attempt() < 2 ? failsWith('service_unavailable') : { outcome: 'ready' },
    );
    const { card, value } = await run({ prepareCardEnrichment, recordCardEnrichmentFailure: recorder() });
    expect(value).toEqual({ cardId: card.cardId, outcome: 'ready' });
    expect(prepareCardEnrichment).toHaveBeenCalledTimes(2);
  });

  it('a provider outage of 25 minutes is waited out with server-side timers, then the card is prepared', async () => {
    const prepareCardEnrichment = vi.fn(async (_card: CardEnrichmentInput): Promise<PreparationOutcome> =>
      providerSureWaitMs(attempt()) < 25 * 60_000 ? failsWith('service_unavailable') : { outcome: 'ready' },
    );
    const recordCardEnrichmentFailure = recorder();
    const { handle, card, value } = await run({ prepareCardEnrichment, recordCardEnrichmentFailure });
    expect(value).toEqual({ cardId: card.cardId, outcome: 'ready' });
    expect(recordCardEnrichmentFailure).not.toHaveBeenCalled();
    const { startTime, closeTime } = await handle.describe();
    expect(closeTime!.getTime() - startTime.getTime()).toBeGreaterThanOrEqual(25 * 60_000);
    // Each wait longer than the local retry threshold is a timer on the server, not a workflow task held open.
    expect((await eventKinds(handle)).filter((kind) => kind === 'timerStarted').length).toBeGreaterThanOrEqual(prepareCardEnrichment.mock.calls.length - 2);
  });

  it('a provider outage longer than half an hour fails the card service_unavailable after 30–41 minutes', async () => {
    const prepareCardEnrichment = vi.fn(async (): Promise<PreparationOutcome> => failsWith('service_unavailable'));
    const recordCardEnrichmentFailure = recorder();
    const { handle, card, error } = await run({ prepareCardEnrichment, recordCardEnrichmentFailure });
    expectFailedWith(error, 'service_unavailable');
    expect(prepareCardEnrichment).toHaveBeenCalledTimes(providerAttempts());
    expect(recordCardEnrichmentFailure).toHaveBeenCalledExactlyOnceWith(refOf(card), expect.objectContaining({ code: 'service_unavailable' }));
    const { startTime, closeTime } = await handle.describe();
    expect(closeTime!.getTime() - startTime.getTime()).toBeGreaterThanOrEqual(PROVIDER_WAIT.windowMs);
    expect(closeTime!.getTime() - startTime.getTime()).toBeLessThan(41 * 60_000);
  });

  it('a verdict (output that failed validation) is not retried: recorded on the card, the run ends FAILED with its code', async () => {
    const prepareCardEnrichment = vi.fn(async (): Promise<PreparationOutcome> => failsWith('provider_output_invalid'));
    const recordCardEnrichmentFailure = recorder();
    const { handle, card, error } = await run({ prepareCardEnrichment, recordCardEnrichmentFailure });
    expectFailedWith(error, 'provider_output_invalid');
    expect(prepareCardEnrichment).toHaveBeenCalledTimes(1);
    expect(recordCardEnrichmentFailure).toHaveBeenCalledExactlyOnceWith(refOf(card), {
      code: 'provider_output_invalid',
      message: 'The work failed: provider_output_invalid.',
    });
    expect(await outcomeOf(handle)).toBe('provider_output_invalid');
  });

  it('no credits is a business outcome: recorded on the card, the run completes with it, tagged LcsOutcome', async () => {
    const recordCardEnrichmentFailure = recorder();
    const { handle, card, value } = await run({ prepareCardEnrichment: async () => failsWith('insufficient_credits'), recordCardEnrichmentFailure });
    expect(value).toEqual({ cardId: card.cardId, outcome: 'insufficient_credits' });
    expect(recordCardEnrichmentFailure).toHaveBeenCalledExactlyOnceWith(refOf(card), expect.objectContaining({ code: 'insufficient_credits' }));
    expect((await handle.describe()).status.name).toBe('COMPLETED');
    expect(await outcomeOf(handle)).toBe('insufficient_credits');
  });

  it('recording the failure is retried until it lands (the database away for a while)', async () => {
    const recordCardEnrichmentFailure = vi.fn(async () => {
      if (attempt() < 4) failsWith('database_unreachable');
    });
    const { result, skippedMs } = await timeSkipped(env(), () =>
      run({ prepareCardEnrichment: async () => failsWith('provider_output_invalid'), recordCardEnrichmentFailure }),
    );
    const { error } = result;
    expectFailedWith(error, 'provider_output_invalid');
    expect(recordCardEnrichmentFailure).toHaveBeenCalledTimes(4);
    expect(skippedMs).toBeGreaterThanOrEqual(1_000); // 1 + 2 + 4 s of backoff, skipped: the first at least
  });

  it('a repeated run of an attempt that already failed ends FAILED the same way, without recording it again', async () => {
    const recordCardEnrichmentFailure = recorder();
    const { handle, error } = await run({
      prepareCardEnrichment: prepared({ outcome: 'failed', error: { code: 'privacy_routing_unavailable', message: 'refused' } }),
      recordCardEnrichmentFailure,
    });
    expectFailedWith(error, 'privacy_routing_unavailable');
    expect(recordCardEnrichmentFailure).not.toHaveBeenCalled();
    expect(await outcomeOf(handle)).toBe('privacy_routing_unavailable');
  });

  it('the card gone before its preparation: completes deleted, tagged LcsOutcome', async () => {
    const { handle, card, value } = await run({ prepareCardEnrichment: prepared({ outcome: 'gone' }), recordCardEnrichmentFailure: recorder() });
    expect(value).toEqual({ cardId: card.cardId, outcome: 'deleted' });
    expect(await outcomeOf(handle)).toBe('deleted');
  });

  it('cancelled (the card deleted) while the model call runs: completes deleted, nothing recorded', async () => {
    let calling!: () => void;
    const called = new Promise<void>((resolve) => {
      calling = resolve;
    });
    const prepareCardEnrichment = vi.fn(async (): Promise<PreparationOutcome> => {
      calling();
      const { Context } = await import('@temporalio/activity');
      await Context.current().sleep(3_600_000); // rejects when the workflow cancels it
      return { outcome: 'ready' };
    });
    const recordCardEnrichmentFailure = recorder();
    const card = input();
    const result = await runWithWorker(env(), { prepareCardEnrichment, recordCardEnrichmentFailure }, async (client, taskQueue) => {
      const handle = await client.workflow.start(cardEnrichment, {
        taskQueue,
        workflowId: workflowId(WORKFLOW_KINDS.cardEnrichment, card.cardId),
        args: [card],
      });
      await called;
      await handle.cancel();
      return { handle, value: await handle.result() };
    });
    expect(result.value).toEqual({ cardId: card.cardId, outcome: 'deleted' });
    expect((await result.handle.describe()).status.name).toBe('COMPLETED');
    expect(await outcomeOf(result.handle)).toBe('deleted');
    expect(recordCardEnrichmentFailure).not.toHaveBeenCalled();
  });
});
