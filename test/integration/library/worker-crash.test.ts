import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { inject } from 'vitest';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser } from '../../support/users.ts';
import { capture, preparationCalls, preparationCharges, waitForStatus } from './helpers.ts';

let stack: Stack;
let child: ChildProcess | undefined;
// Only the child process, then a replacement worker, serve this file's task queue.
beforeAll(async () => { stack = await startStack({ worker: false }); });
afterAll(async () => {
  child?.kill('SIGKILL');
  await stack?.close();
});

function spawnWorker(): Promise<ChildProcess> {
  const infra = inject('infra');
  const script = fileURLToPath(new URL('../../support/worker-process.ts', import.meta.url));
  // `node --import tsx` (not the tsx CLI, which forks a grandchild that SIGKILL would orphan).
  const proc = spawn(process.execPath, ['--import', 'tsx', script], {
    env: {
      ...process.env,
      DATABASE_URL: infra.databaseUrl,
      TEMPORAL_ADDRESS: infra.temporalAddress,
      TEMPORAL_TASK_QUEUE: stack.config.temporal.taskQueue,
      OPENROUTER_BASE_URL: stack.fake.baseUrl,
      OPENROUTER_API_KEY: 'test-key',
      MODEL_TIMEOUT_MS: '30000',
      MODEL_MAX_RETRIES: '0',
      WORKFLOW_BUNDLE_PATH: infra.workflowBundlePath,
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    proc.stdout!.on('data', (d: Buffer) => { if (d.toString().includes('worker-ready')) resolve(proc); });
    proc.once('exit', (code) => reject(new Error(`worker process exited early (${code})`)));
  });
}

it('a worker killed (SIGKILL) in the middle of a preparation: the card still reaches ready, charged exactly once', async () => {
  const user = await newUser(stack.http);
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
});
