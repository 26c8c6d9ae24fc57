import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { AnswerHoldingProxy } from '../../../chaos/answer-hold.ts';
import { importWorkflowId } from '../../../src/features/library/imports/service.ts';
import { freePort } from '../../../src/platform/free-port.ts';
import { preparationCalls } from '../library/helpers.ts';
import { spawnService, spawnWorkerProcess, waitForHttp, type ServiceProcess } from '../../support/processes.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';

// Issue 26: an import survives worker and API kills. The processes that die are children of this
// file (`test/support/worker-process.ts`, `src/http/server.ts`), SIGKILLed as a crash would end
// them; what replaces them is this file's stack (its API, then its in-process worker), on the same
// database, Temporal server and task queue.
let stack: Stack;
/** The process that dies in the running test. */
let child: ServiceProcess | undefined;
beforeAll(async () => {
  stack = await startStack({ worker: false });
});
afterAll(async () => {
  await child?.kill();
  await stack?.close();
});
beforeEach(async () => {
  await stack.stopWorker(); // each test says which worker serves the queue
  stack.fake.reset();
  stack.fake.setCost('0.00001'); // one credit a card
});
afterEach(async () => {
  await child?.kill();
  child = undefined;
});

const infraEnv = () => {
  const infra = inject('infra');
  return {
    DATABASE_URL: infra.databaseUrl,
    TEMPORAL_ADDRESS: infra.temporalAddress,
    TEMPORAL_TASK_QUEUE: stack.config.temporal.taskQueue,
    OPENROUTER_BASE_URL: stack.fake.baseUrl,
    OPENROUTER_API_KEY: 'test-key',
    // As the stack's own: the model bucket never paces these imports (the imports test covers pacing).
    RATE_LIMIT_MAX: '100000',
    RATE_LIMIT_MODEL_MAX: '100000',
  };
};

/** A worker (and its outbox relay) in its own process, ready once it polls the task queue. */
function spawnWorker(): Promise<ServiceProcess> {
  return spawnWorkerProcess({
    ...infraEnv(),
    WORKFLOW_BUNDLE_PATH: inject('infra').workflowBundlePath,
    MODEL_TIMEOUT_MS: '30000',
    MODEL_MAX_RETRIES: '0',
    LOG_LEVEL: 'silent',
  });
}

async function call(baseUrl: string, token: string, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${baseUrl}${path}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

async function importView(user: TestUser, importId: string) {
  const res = await call(stack.baseUrl, user.token, `/api/library/imports/${importId}`);
  expect(res.status).toBe(200);
  return res.body.import;
}

async function waitForState(user: TestUser, importId: string, state: string, timeout: number) {
  return vi.waitFor(
    async () => {
      const view = await importView(user, importId);
      expect(view.state, JSON.stringify(view)).toBe(state);
      return view;
    },
    { timeout, interval: 250 },
  );
}

async function rows<T>(query: string, params: unknown[]): Promise<T[]> {
  return stack.orm.em.fork().execute<T[]>(query, params);
}

const expressionsFor = (label: string, n: number) => Array.from({ length: n }, (_, i) => `${label} expression number ${i + 1}`);

/**
 * What a finished import of `n` new expressions must leave, whatever died on the way: one card per
 * expression, one preparation started per card, every card ready and charged exactly once (under
 * its first attempt's key), one import, nothing still held. A card that ran out of credits is
 * started again under its next attempt, once.
 */
async function expectExactlyOnce(user: TestUser, importId: string, n: number, options: { ranOutOfCredits?: boolean } = {}) {
  const view = await importView(user, importId);
  expect(view.counts).toMatchObject({ total: n, saved: n, reused: 0, prepared: n, preparing: 0, waiting: 0, waitingForCredits: 0, failed: {} });
  const cards = await rows<{ id: string; enrichment_status: string }>(`SELECT id, enrichment_status FROM cards WHERE user_id = ?`, [user.userId]);
  expect(cards).toHaveLength(n);
  expect(cards.every((c) => c.enrichment_status === 'ready')).toBe(true);
  const importCards = await rows<{ card_id: string }>(`SELECT card_id FROM library_import_rows WHERE import_id = ?`, [importId]);
  expect(new Set(importCards.map((r) => r.card_id))).toEqual(new Set(cards.map((c) => c.id)));
  const starts = await rows<{ workflow_id: string; n: string }>(
    `SELECT workflow_id, count(*) AS n FROM workflow_outbox WHERE workflow_id IN (?) GROUP BY workflow_id`,
    [cards.map((c) => `card-enrichment/${c.id}`)],
  );
  expect(starts).toHaveLength(n);
  if (!options.ranOutOfCredits) expect(starts.filter((s) => Number(s.n) !== 1)).toEqual([]);
  const charges = await rows<{ ref: string; idempotency_key: string; amount: number }>(
    `SELECT ref, idempotency_key, amount FROM ledger_entries WHERE user_id = ? AND kind = 'capture_preparation'`,
    [user.userId],
  );
  expect(charges).toHaveLength(n);
  expect(new Set(charges.map((c) => c.ref))).toEqual(new Set(cards.map((c) => c.id)));
  const attempt = (ref: string) => (options.ranOutOfCredits ? Number(starts.find((s) => s.workflow_id === `card-enrichment/${ref}`)!.n) : 1);
  expect(charges.filter((c) => c.idempotency_key !== `card-enrichment/${c.ref}/attempt-${attempt(c.ref)}` || c.amount !== -1)).toEqual([]);
  expect(await rows(`SELECT 1 FROM library_imports WHERE user_id = ?`, [user.userId])).toHaveLength(1);
  expect(await rows(`SELECT 1 FROM workflow_outbox WHERE workflow_id = ?`, [importWorkflowId(importId)])).toHaveLength(1);
  expect(await rows(`SELECT 1 FROM credit_holds WHERE user_id = ?`, [user.userId])).toEqual([]);
}

async function fund(user: TestUser, balance: number) {
  await rows(`UPDATE wallets SET balance = ? WHERE user_id = ?`, [balance, user.userId]);
}

const balance = async (user: TestUser) => Number((await rows<{ balance: number }>(`SELECT balance FROM wallets WHERE user_id = ?`, [user.userId]))[0]!.balance);

describe('an import survives', () => {
  it('its worker SIGKILLed mid-import: a new worker finishes it, every expression one card, prepared and charged exactly once', async () => {
    const N = 150;
    const user = await newUser(stack);
    await fund(user, 10_000);
    stack.fake.setLatency(400); // 16 in flight at a time: the import is some 4 s of model calls
    child = await spawnWorker();

    const created = await call(stack.baseUrl, user.token, '/api/library/imports', { body: { expressions: expressionsFor('worker kill', N) } });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const importId: string = created.body.import.importId;

    // Some prepared, most not, some in flight at the provider.
    const atKill = await vi.waitFor(
      async () => {
        const view = await importView(user, importId);
        expect(view.counts.prepared).toBeGreaterThanOrEqual(50);
        expect(view.counts.preparing).toBeGreaterThan(0);
        return view;
      },
      { timeout: 90_000, interval: 100 },
    );
    await child.kill('SIGKILL');
    const killedAt = Date.now();
    const afterKill = await importView(user, importId);
    child = undefined;
    expect(afterKill.state).toBe('preparing');
    expect(afterKill.counts.prepared).toBeLessThan(N);

    const callsAtKill = preparationCalls(stack).length;
    stack.fake.setLatency(50);
    await stack.startWorker();
    await waitForState(user, importId, 'completed', 120_000);
    const recoveryMs = Date.now() - killedAt;
    console.info(
      `worker kill: ${afterKill.counts.prepared}/${N} prepared and ${afterKill.counts.preparing} in flight at the kill ` +
        `(${atKill.counts.prepared} seen just before); ` +
        `${callsAtKill} model calls before it, ${preparationCalls(stack).length} in all; completed ${(recoveryMs / 1000).toFixed(1)} s after the kill`,
    );

    await expectExactlyOnce(user, importId, N);
    expect(await balance(user)).toBe(10_000 - N);
    // Only the calls the dead worker had in flight are made twice, never more than the in-flight window.
    expect(preparationCalls(stack).length).toBeGreaterThanOrEqual(N);
    expect(preparationCalls(stack).length - N).toBeLessThanOrEqual(afterKill.counts.preparing);
  }, 240_000);

  it.each([
    ['the same Idempotency-Key', { 'idempotency-key': `kill-${Date.now()}` }],
    ['the same content (no key)', {}],
  ])(
    'the API that took it SIGKILLed between commit and answer: it still completes, and a retry with %s gets the same import',
    async (label, headers: Record<string, string>) => {
      const N = 40;
      const user = await newUser(stack);
      await fund(user, 1_000);
      // No worker (and so no relay) yet: the workflow's start is still only an outbox row when the API dies.
      const port = await freePort();
      child = spawnService('src/http/server.ts', { ...infraEnv(), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' });
      await waitForHttp(`http://127.0.0.1:${port}/healthz`, 60_000, child);
      const proxy = await AnswerHoldingProxy.start(port);
      try {
        const body = { expressions: expressionsFor('api kill', N) };
        proxy.hold(); // the API's answer never reaches the client
        const lost = call(proxy.url, user.token, '/api/library/imports', { body, headers }).catch((error: unknown) => error);
        const [committed] = await vi.waitFor(
          async () => {
            const found = await rows<{ id: string }>(`SELECT id FROM library_imports WHERE user_id = ?`, [user.userId]);
            expect(found).toHaveLength(1);
            return found;
          },
          { timeout: 20_000, interval: 20 },
        );
        await child.kill('SIGKILL');
        const killedAt = Date.now();
        const [outbox] = await rows<{ dispatched_at: Date | null }>(`SELECT dispatched_at FROM workflow_outbox WHERE workflow_id = ?`, [
          importWorkflowId(committed!.id),
        ]);
        expect(outbox).toEqual({ dispatched_at: null });
        proxy.dropHeld(); // an answer written before the kill is never delivered either
        expect(await lost).toBeInstanceOf(Error); // the client saw its connection end without an answer

        const retry = await call(stack.baseUrl, user.token, '/api/library/imports', { body, headers });
        const retriedAfterMs = Date.now() - killedAt;
        expect(retry.status, JSON.stringify(retry.body)).toBe(200);
        expect(retry.headers.get('idempotent-replayed')).toBe('true');
        expect(retry.body.import.importId).toBe(committed!.id);

        await stack.startWorker();
        await waitForState(user, committed!.id, 'completed', 90_000);
        console.info(
          `API kill (${label}): the retry answered 200 ${retriedAfterMs} ms after it; ` +
            `a worker's relay started the import, which completed ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill`,
        );
        await expectExactlyOnce(user, committed!.id, N);
        expect(await balance(user)).toBe(1_000 - N);
      } finally {
        await proxy.close();
      }
    },
    150_000,
  );

  it('its worker SIGKILLed while it waits for credits: a new worker goes on waiting, and finishes once they are granted', async () => {
    const user = await newUser(stack);
    await fund(user, 0);
    child = await spawnWorker();
    const created = await call(stack.baseUrl, user.token, '/api/library/imports', { body: { expressions: expressionsFor('credit kill', 3) } });
    expect(created.status).toBe(202);
    const importId: string = created.body.import.importId;
    const waiting = await waitForState(user, importId, 'waiting_for_credits', 60_000);
    expect(waiting.counts).toMatchObject({ saved: 3, prepared: 0, waitingForCredits: 3 });
    const callsWaiting = preparationCalls(stack).length;
    // The workflow's timer is set (the wait is in its history) before the worker dies.
    const handle = stack.temporal.workflow.getHandle(importWorkflowId(importId));
    await vi.waitFor(
      async () => {
        const pending = (await handle.fetchHistory()).events?.some((e) => e.timerStartedEventAttributes);
        expect(pending).toBe(true);
      },
      { timeout: 20_000, interval: 200 },
    );
    await child.kill('SIGKILL');
    child = undefined;

    await stack.startWorker();
    // The new worker takes the run over and keeps waiting: no card prepared, nothing charged.
    await new Promise((r) => setTimeout(r, 3_000));
    expect((await importView(user, importId)).state).toBe('waiting_for_credits');
    expect(preparationCalls(stack)).toHaveLength(callsWaiting);

    await fund(user, 500);
    await handle.signal('importWake');
    const grantedAt = Date.now();
    await waitForState(user, importId, 'completed', 60_000);
    console.info(`credits kill: the new worker kept waiting; completed ${((Date.now() - grantedAt) / 1000).toFixed(1)} s after the credits were granted`);
    await expectExactlyOnce(user, importId, 3, { ranOutOfCredits: true });
    expect(await balance(user)).toBe(497);
  }, 150_000);
});
