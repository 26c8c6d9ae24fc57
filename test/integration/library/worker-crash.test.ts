import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { inject } from 'vitest';
import { counterValue } from '../../support/metrics.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser } from '../../support/users.ts';
import { capture, preparationCalls, preparationCharges, waitForStatus } from './helpers.ts';
import { asyncHeaders, ledgerKinds, translationCalls, waitForSettled } from '../sentences/support.ts';
import { SERVICE_NODE_FLAGS, serviceProcessEnv } from '../../../src/platform/node-flags.ts';
import { api, expectStatus } from '../../support/api.ts';

let stack: Stack;
let child: ChildProcess | undefined;
// Only the child process, then a replacement worker, serve this file's task queue.
beforeAll(async () => {
  stack = await startStack({ worker: false });
});
afterAll(async () => {
  child?.kill('SIGKILL');
  await stack?.close();
});

function spawnWorker(): Promise<ChildProcess> {
  const infra = inject('infra');
  const script = fileURLToPath(new URL('../../support/worker-process.ts', import.meta.url));
  // `node <script>` (not a wrapper CLI, which would fork a grandchild that SIGKILL would orphan).
  const proc = spawn(process.execPath, [...SERVICE_NODE_FLAGS, script], {
    env: serviceProcessEnv({
      DATABASE_URL: infra.databaseUrl,
      TEMPORAL_ADDRESS: infra.temporalAddress,
      TEMPORAL_TASK_QUEUE: stack.config.temporal.taskQueue,
      OPENROUTER_BASE_URL: stack.fake.baseUrl,
      OPENROUTER_API_KEY: 'test-key',
      MODEL_TIMEOUT_MS: '30000',
      MODEL_MAX_RETRIES: '0',
      WORKFLOW_BUNDLE_PATH: infra.workflowBundlePath,
      LOG_LEVEL: 'silent',
    }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    proc.stdout.on('data', (d: Buffer) => {
      if (d.toString().includes('worker-ready')) resolve(proc);
    });
    proc.once('exit', (code) => reject(new Error(`worker process exited early (${code})`)));
  });
}

/** Enrichment calls whose answer a dead worker lost, as the operator's metric counts them. */
const lostEnrichmentCalls = () => counterValue('lcs_provider_unbilled_calls_total', { task: 'capture_preparation', reason: 'lost' });

it('a worker killed (SIGKILL) in the middle of a preparation: the card still reaches ready, charged exactly once, the lost call counted', async () => {
  const user = await newUser(stack);
  const lostBefore = await lostEnrichmentCalls();
  stack.fake.setCost('0.00001');
  stack.fake.setLatency(15_000); // the kill lands while the model call is in flight
  child = await spawnWorker();

  const card = await capture(stack, user, 'survives a worker crash');
  await vi.waitFor(() => expect(preparationCalls(stack)).toHaveLength(1), { timeout: 30_000, interval: 100 });
  const exited = new Promise((resolve) => child!.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  child = undefined;

  const [row] = await stack.orm.em.fork().execute<{ enrichment_status: string }[]>(`SELECT enrichment_status FROM cards WHERE id = ?`, [card.cardId]);
  expect(row!.enrichment_status).toBe('pending');

  stack.fake.setLatency(0);
  await stack.startWorker(); // the replacement picks the activity up once its heartbeat times out
  await waitForStatus(stack, user, card.cardId, 'ready', 60_000);
  expect(preparationCalls(stack).length).toBeGreaterThanOrEqual(2);
  expect(await preparationCharges(stack, user.userId)).toEqual([{ idempotency_key: `card-enrichment/${card.cardId}/attempt-1`, amount: -1, ref: card.cardId }]);
  // The replacement (this process) found the dead attempt's hold with its call in flight: spend nobody paid for.
  expect(await lostEnrichmentCalls()).toBe(lostBefore + 1);
});

it('a worker killed (SIGKILL) in the middle of an async sentence translation: the sentence is translated within a minute, charged once', async () => {
  const user = await newUser(stack);
  stack.fake.setCost('0.00001');
  stack.fake.setLatency(15_000);
  child = await spawnWorker();

  const res = await api(stack, { token: user.token }).POST('/api/sentences', {
    params: { query: { mode: 'async' } },
    body: { original_text: 'A sentence that outlives its worker.' },
    headers: asyncHeaders,
  });
  expectStatus(res, 202);
  const sentenceId: string = res.body.sentence.id;
  await vi.waitFor(() => expect(translationCalls(stack)).toHaveLength(1), { timeout: 30_000, interval: 100 });
  const exited = new Promise((resolve) => child!.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  child = undefined;

  stack.fake.setLatency(0);
  await stack.startWorker(); // before the heartbeat, the attempt waited out its 5-minute start-to-close timeout
  const settled = await waitForSettled(stack, sentenceId, 60_000);
  expect(settled.status).toBe('translated');
  expect(await ledgerKinds(stack, user.userId, 'sentence_translation')).toHaveLength(1);
}, 90_000);
