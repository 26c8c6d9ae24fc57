import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { freePort } from '../../../src/platform/free-port.ts';
import { LEASE } from '../../../src/services/leases.ts';
import { spawnService, waitForHttp, type ServiceProcess } from '../../support/processes.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { counterValue } from '../../support/metrics.ts';
import { balanceOf, newUser, type TestUser } from '../../support/users.ts';
import { batchCalls, pageCharges, translateBody, uniqueText } from '../page-translation/support.ts';
import { ledgerKinds, translationCalls } from '../sentences/support.ts';
import { api, expectProblem, expectStatus, type AnyReply, type Target } from '../../support/api.ts';

// An API process of its own (`src/http/server.ts`) beside this file's stack, on the same database:
// it takes a request, and is SIGKILLed while the model works on it. The user's retry then reaches
// the stack's API, as it would reach another process behind a load balancer.
let stack: Stack;
let user: TestUser;
/** The API process that dies, and its address. */
let child: ServiceProcess | undefined;
let childApi: Target;
beforeAll(async () => {
  stack = await startStack();
  user = await newUser(stack);
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(async () => {
  stack.fake.reset();
  const infra = inject('infra');
  const port = await freePort();
  child = spawnService('src/http/server.ts', {
    DATABASE_URL: infra.databaseUrl,
    TEMPORAL_ADDRESS: infra.temporalAddress,
    TEMPORAL_TASK_QUEUE: stack.config.temporal.taskQueue,
    OPENROUTER_BASE_URL: stack.fake.baseUrl,
    OPENROUTER_API_KEY: 'test-key',
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  });
  await waitForHttp(`http://127.0.0.1:${port}/healthz`, 60_000, child);
  childApi = { baseUrl: `http://127.0.0.1:${port}` };
});
afterEach(async () => {
  await child?.kill();
});

/**
 * Sends `send` to the child API, kills the child once the provider has the model call, then
 * retries `send` against the surviving API until it is answered with something else than a 409.
 * Returns that answer, the 409s seen meanwhile and how long the retry took after the kill.
 */
async function crashMidRequest<R extends AnyReply>(send: (service: Target) => Promise<R>, modelCalls: () => number, beforeKill?: () => Promise<void>) {
  stack.fake.setLatency(60_000); // the model is still working when the process dies
  const lost = send(childApi).catch((error: unknown) => error);
  await vi.waitFor(() => expect(modelCalls()).toBe(1), { timeout: 20_000, interval: 50 });
  await beforeKill?.();
  await child!.kill('SIGKILL');
  await lost;
  stack.fake.setLatency(0);

  const killedAt = Date.now();
  const conflicts: R[] = [];
  for (;;) {
    const res = await send(stack);
    if (res.status !== 409 || Date.now() - killedAt > 40_000) return { res, conflicts, afterMs: Date.now() - killedAt };
    conflicts.push(res);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The lease, plus time for a renewal that was in flight and for a 2-core machine. */
const WITHIN_SECONDS_MS = LEASE.durationMs + 5_000;

/** Leaves the user exactly the credits the dying process holds: its hold must not block the retry. */
async function onlyTheHeldCredits(userId: string) {
  const em = stack.orm.em.fork();
  await em.execute(`UPDATE wallets SET balance = (SELECT sum(credits) FROM credit_holds WHERE user_id = ?) WHERE user_id = ?`, [userId, userId]);
}

describe("an API process killed mid-request does not strand the user's retry", () => {
  it('a sync sentence: the re-post translates it within seconds, under the same id, charged once', async () => {
    const text = `Killed while translating ${randomUUID()}`;
    const before = await balanceOf(stack, user);
    const { res, conflicts, afterMs } = await crashMidRequest(
      (service) => api(service, { token: user.token }).POST('/api/sentences', { body: { original_text: text } }),
      () => translationCalls(stack).length,
    );
    expectStatus(res, 200);
    expect(afterMs).toBeLessThan(WITHIN_SECONDS_MS);
    const duplicates = conflicts.map((conflict) => {
      expectProblem(conflict, 409, 'duplicate_sentence');
      return conflict.body;
    });
    expect(res.body.sentence).toMatchObject({ id: duplicates[0]?.existingId ?? res.body.sentence.id, status: 'translated' });
    expect(await balanceOf(stack, user)).toBe(before - 3);
    expect((await ledgerKinds(stack, user.userId, 'sentence_translation')).filter((c) => c.idempotency_key.includes(res.body.sentence.id))).toHaveLength(1);
    expectProblem(await api(stack, { token: user.token }).POST('/api/sentences', { body: { original_text: text } }), 409, 'duplicate_sentence');
  }, 90_000);

  it('a page translation: the retried request_id is answered within seconds, charged once', async () => {
    const body = translateBody([
      { id: 'a', text: uniqueText('Killed mid-batch') },
      { id: 'b', text: uniqueText('And its neighbour') },
    ]);
    const before = await balanceOf(stack, user);
    const { res, conflicts, afterMs } = await crashMidRequest(
      (service) => api(service, { token: user.token }).POST('/api/immersive-translate', { body }),
      () => batchCalls(stack).length,
    );
    expectStatus(res, 200);
    expect(afterMs).toBeLessThan(WITHIN_SECONDS_MS);
    for (const conflict of conflicts) expectProblem(conflict, 409, 'request_in_progress');
    expect(res.body.items.map((i) => i.id)).toEqual(['a', 'b']);
    expect(await balanceOf(stack, user)).toBe(before - res.body.credits_charged);
    expect((await pageCharges(stack, user.userId)).filter((c) => c.idempotency_key.startsWith(`page-translation/${body.request_id}/`))).toHaveLength(1);
    const replay = await api(stack, { token: user.token }).POST('/api/immersive-translate', { body });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  }, 90_000);

  // The dead process still holds what it reserved; with nothing else left, its hold must neither
  // refuse the retry (402) nor go unnoticed: its call is counted as lost.
  it.each([
    [
      'a sync sentence',
      'translate_sentence',
      (token: string) => {
        const text = uniqueText('Held by a dead process');
        return (service: Target): Promise<AnyReply> => api(service, { token }).POST('/api/sentences', { body: { original_text: text } });
      },
      () => translationCalls(stack).length,
    ],
    [
      'a page translation',
      'translate_batch',
      (token: string) => {
        const body = translateBody([{ id: 'a', text: uniqueText('Held by a dead process') }]);
        return (service: Target): Promise<AnyReply> => api(service, { token }).POST('/api/immersive-translate', { body });
      },
      () => batchCalls(stack).length,
    ],
  ])(
    '%s, with only the credits the dead process holds left: the retry is served, the lost call counted',
    async (_kind, task, request, modelCalls) => {
      const poor = await newUser(stack);
      const lost = () => counterValue('lcs_provider_unbilled_calls_total', { task, reason: 'lost' });
      const lostBefore = await lost();
      const { res, afterMs } = await crashMidRequest(request(poor.token), modelCalls, () => onlyTheHeldCredits(poor.userId));
      expect(res.status, res.text).toBe(200);
      expect(afterMs).toBeLessThan(WITHIN_SECONDS_MS);
      expect(await lost()).toBe(lostBefore + 1);
    },
    90_000,
  );
});
