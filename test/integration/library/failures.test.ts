import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it, vi } from 'vitest';
import type { FakeMode } from '../../../src/model/fake-provider/server.ts';
import type { Stack } from '../../support/stack.ts';
import { useStack } from '../../support/fixture.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { capture, preparationCalls, preparationCharges, setBalance, waitForStatus } from './helpers.ts';
import { api, bodyOf, expectProblem, expectStatus } from '../../support/api.ts';

let stack: Stack;
let user: TestUser;
useStack((started) => ({ stack, user } = started), { fakeCost: '0.00001' }); // 1 credit per enrichment

/** The workflow's failure chain: WorkflowFailedError → ApplicationFailure typed by the code. */
async function workflowFailure(cardId: string): Promise<ApplicationFailure> {
  const error = await stack.temporal.workflow
    .getHandle(`card-enrichment/${cardId}`)
    .result()
    .then(
      () => null,
      (e) => e,
    );
  expect(error).toBeInstanceOf(WorkflowFailedError);
  expect(error.cause).toBeInstanceOf(ApplicationFailure);
  return error.cause;
}

describe('a failing provider', () => {
  const cases: [FakeMode, string][] = [
    ['fail', 'service_unavailable'],
    ['malformed', 'provider_output_invalid'],
    ['schema_violation', 'provider_output_invalid'],
    ['privacy_refusal', 'privacy_routing_unavailable'],
  ];
  it.each(cases)('mode %s → the card fails with %s, the workflow ends FAILED, nothing is charged', async (mode, code) => {
    stack.fake.setMode(mode);
    const card = await capture(stack, user, `failing in mode ${mode}`);
    const failed = await waitForStatus(stack, user, card.cardId, 'failed');
    expect(failed.enrichmentError).toEqual({ code, message: expect.any(String) });
    expect(failed.enrichment).toBeNull();
    const failure = await workflowFailure(card.cardId);
    expect(failure.type).toBe(code);
    expect((await preparationCharges(stack, user.userId)).filter((c) => c.ref === card.cardId)).toEqual([]);
    // The listing shows the status too.
    const list = bodyOf(await api(stack, { token: user.token }).GET('/api/library', { params: { query: { query: `mode ${mode}` } } }), 200);
    expect(list.items[0]).toMatchObject({ cardId: card.cardId, enrichmentStatus: 'failed', enrichmentError: { code } });
  });

  it('a refresh prepares the same card again (new attempt, same workflow id, new run), keeping its scheduling', async () => {
    stack.fake.setMode('privacy_refusal');
    const card = await capture(stack, user, 'refresh after failure');
    await waitForStatus(stack, user, card.cardId, 'failed');
    const firstRun = (await stack.temporal.workflow.getHandle(`card-enrichment/${card.cardId}`).describe()).runId;
    // Learning progress made meanwhile must survive the refresh.
    await stack.orm.em.fork().execute(`UPDATE card_schedules SET reps = 3, lapses = 1, state = 'review' WHERE card_id = ?`, [card.cardId]);

    stack.fake.setMode('ok');
    const res = await api(stack, { token: user.token }).PATCH('/api/library', { body: { cardId: card.cardId, action: 'refresh_enrichment' } });
    expectStatus(res, 202);
    expect(res.body.card).toMatchObject({ cardId: card.cardId, enrichmentStatus: 'pending', enrichment: null });
    expect(res.body.card.enrichmentError).toBeUndefined();
    expectProblem(
      await api(stack, { token: user.token }).PATCH('/api/library', { body: { cardId: card.cardId, action: 'refresh_enrichment' } }),
      409,
      'conflict',
    );

    const ready = await waitForStatus(stack, user, card.cardId, 'ready');
    expect(ready.scheduling).toMatchObject({ reps: 3, lapses: 1, state: 'review' });
    const description = await stack.temporal.workflow.getHandle(`card-enrichment/${card.cardId}`).describe();
    expect(description.runId).not.toBe(firstRun);
    expect((await preparationCharges(stack, user.userId)).filter((c) => c.ref === card.cardId).map((c) => c.idempotency_key)).toEqual([
      `card-enrichment/${card.cardId}/attempt-2`,
    ]);
  });
});

describe('no credits left', () => {
  it('still saves the capture (202, never 402); preparation fails insufficient_credits without calling the model', async () => {
    const broke = await newUser(stack);
    await setBalance(stack, broke.userId, 0);
    const card = await capture(stack, broke, 'capture while broke');
    const failed = await waitForStatus(stack, broke, card.cardId, 'failed');
    expect(failed.enrichmentError!.code).toBe('insufficient_credits');
    expect(failed.scheduling.state).toBe('new'); // still in the learning queue
    expect(preparationCalls(stack)).toEqual([]);
    expect(await preparationCharges(stack, broke.userId)).toEqual([]);
  });

  it('is a business outcome: the workflow ends Completed, found by LcsOutcome, and a refresh after a top-up prepares the card', async () => {
    const broke = await newUser(stack);
    await setBalance(stack, broke.userId, 0);
    const card = await capture(stack, broke, 'outcome while broke');
    const workflowId = `card-enrichment/${card.cardId}`;
    await waitForStatus(stack, broke, card.cardId, 'failed');
    await expect(stack.temporal.workflow.getHandle(workflowId).result()).resolves.toEqual({ cardId: card.cardId, outcome: 'insufficient_credits' });
    expect((await stack.temporal.workflow.getHandle(workflowId).describe()).status.name).toBe('COMPLETED');
    const query = `LcsOutcome="insufficient_credits" AND LcsUserId="${broke.userId}"`;
    await vi.waitFor(
      async () => {
        const found = [];
        for await (const run of stack.temporal.workflow.list({ query })) found.push({ workflowId: run.workflowId, status: run.status.name });
        expect(found).toEqual([{ workflowId, status: 'COMPLETED' }]);
      },
      { timeout: 10_000 },
    );

    await setBalance(stack, broke.userId, 10);
    expect((await api(stack, { token: broke.token }).PATCH('/api/library', { body: { cardId: card.cardId, action: 'refresh_enrichment' } })).status).toBe(202);
    await waitForStatus(stack, broke, card.cardId, 'ready');
  });
});

describe('the provider spend per card is bounded', () => {
  const refresh = (cardId: string) => api(stack, { token: user.token }).PATCH('/api/library', { body: { cardId, action: 'refresh_enrichment' } });
  const callsFor = (text: string) => preparationCalls(stack).filter((r) => JSON.stringify(r.body.messages).includes(text)).length;

  it('invalid output is asked again once per attempt, and a card makes at most 5 model calls over every refresh', async () => {
    stack.fake.setMode('schema_violation');
    const text = 'never valid output';
    const card = await capture(stack, user, text);
    expect((await waitForStatus(stack, user, card.cardId, 'failed')).enrichmentError!.code).toBe('provider_output_invalid');
    expect(callsFor(text)).toBe(2);

    expect((await refresh(card.cardId)).status).toBe(202);
    await waitForStatus(stack, user, card.cardId, 'failed');
    expect(callsFor(text)).toBe(4);

    expect((await refresh(card.cardId)).status).toBe(202);
    await waitForStatus(stack, user, card.cardId, 'failed');
    expect(callsFor(text)).toBe(5); // the budget's last call

    // From now on a refresh fails at once, says why, and costs nothing.
    expect((await refresh(card.cardId)).status).toBe(202);
    const spent = await waitForStatus(stack, user, card.cardId, 'failed');
    expect(spent.enrichmentError).toEqual({ code: 'provider_output_invalid', message: expect.stringContaining('model calls') });
    expect(callsFor(text)).toBe(5);
    expect((await workflowFailure(card.cardId)).type).toBe('provider_output_invalid');
    expect((await preparationCharges(stack, user.userId)).filter((c) => c.ref === card.cardId)).toEqual([]);
  });

  it('calls the provider could not serve do not use up the budget', async () => {
    stack.fake.setMode('privacy_refusal');
    const text = 'refused routing many times';
    const card = await capture(stack, user, text);
    for (let round = 0; round < 6; round++) {
      await waitForStatus(stack, user, card.cardId, 'failed');
      expect((await refresh(card.cardId)).status).toBe(202);
    }
    stack.fake.setMode('ok');
    await waitForStatus(stack, user, card.cardId, 'ready');
    expect(callsFor(text)).toBe(7);
  });
});
