/**
 * CPU per ready card across every process of the stack (API, worker, PostgreSQL with its backends,
 * the Temporal dev server), on the capture path (1,000 captures, 32 at a time) and the import path
 * (one import of 1,000), with the fake provider answering at once; beside it, measured in the same
 * run, its FLOOR: the dev server's CPU for a minimal workflow (started eagerly, one local activity,
 * completed: bench/floor-workflow.ts, on a worker of the bench's own), 1,000 of them. Per phase also:
 * PostgreSQL's statements per card (pg_stat_statements) and what the dev server did.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@temporalio/client';
import { bundleWorkflowCode, NativeConnection, Worker } from '@temporalio/worker';
import { installTemporalRuntime } from '../../src/platform/temporal-runtime.ts';
import { cpuSplit } from '../processes.ts';
import { BENCH_PROCESS, type BenchContext, type BenchUser, waitForReady } from '../support.ts';
import { describeTemporalWork } from '../temporal-counters.ts';
import { call, sendCaptures } from './imports.ts';

const COUNT = 1_000;
const READY_TIMEOUT_MS = 240_000;
const GOAL_MS = 25;
const SERVICE = ['api', 'worker', 'postgres', 'temporal'] as const;

export default async function cards(ctx: BenchContext): Promise<void> {
  ctx.fake.reset();
  ctx.fake.setLatency(0);
  const run = randomUUID().slice(0, 8);
  const floorMs = await minimalWorkflows(ctx, run);
  const floor = `Temporal ${floorMs.temporal.toFixed(1)} ms per minimal workflow (+ ${floorMs.sdk.toFixed(1)} ms its SDK worker and client)`;
  const captured = await toReady(ctx, '1,000 captures', (user) =>
    sendCaptures(
      ctx,
      user.token,
      Array.from({ length: COUNT }, (_, i) => `card ${run} number ${i}`),
    ),
  );
  const imported = await toReady(ctx, 'an import of 1,000', async (user) => {
    const expressions = Array.from({ length: COUNT }, (_, i) => `imported card ${run} number ${i}`);
    await call(ctx, user.token, 'POST', '/api/library/imports', { expressions, source: 'bench.txt' });
  });
  for (const [path, phase] of [
    ['capture', captured],
    ['import', imported],
  ] as const) {
    const parts = SERVICE.map((name) => `${name} ${phase.msPerCard[name]!.toFixed(1)}`).join(', ');
    ctx.report('cards', `CPU per ready card, ${path} path`, `${phase.totalMsPerCard.toFixed(1)} ms (${parts})`, {
      floor,
      goal: `≤ ${GOAL_MS} ms`,
      met: phase.totalMsPerCard <= GOAL_MS,
    });
    ctx.report(
      'cards',
      `1,000 → all ready, ${path} path, provider 0 ms`,
      `${phase.seconds.toFixed(1)} s (${phase.statementsPerCard.toFixed(1)} statements/card)`,
      {
        goal: '≤ 20 s',
        met: phase.seconds <= 20,
      },
    );
  }
}

interface Phase {
  seconds: number;
  msPerCard: Record<string, number>;
  totalMsPerCard: number;
  statementsPerCard: number;
}

/** A new learner, `send` (its cards), then until COUNT of them are ready: wall time, CPU per process per card, statements per card. */
async function toReady(ctx: BenchContext, name: string, send: (user: BenchUser) => Promise<unknown>): Promise<Phase> {
  const user = await ctx.createUser();
  await sleep(500); // sign-up's password hashing settles
  const temporalBefore = await ctx.temporalCounters();
  await ctx.statements.reset();
  const before = ctx.cpu();
  const started = performance.now();
  await send(user);
  const seconds = await waitForReady(ctx, user.userId, COUNT, started, READY_TIMEOUT_MS);
  const after = ctx.cpu();
  const statements = await ctx.statements.since();
  const msPerCard = Object.fromEntries(SERVICE.map((p) => [p, ((after[p]! - before[p]!) * 1000) / COUNT]));
  const totalMsPerCard = SERVICE.reduce((sum, p) => sum + msPerCard[p]!, 0);
  console.log(
    `${name} → all ready in ${seconds.toFixed(1)} s (load average ${loadAverage()}); ${totalMsPerCard.toFixed(1)} ms CPU per card; ` +
      `CPU: ${cpuSplit(before, after)}`,
  );
  console.log(`Temporal dev server meanwhile: ${describeTemporalWork(temporalBefore, await ctx.temporalCounters())}`);
  console.log(`PostgreSQL ran ${statements.total} statements (${(statements.total / COUNT).toFixed(1)} per card), the most frequent:`);
  for (const s of statements.top) console.log(`  ${String(s.calls).padStart(6)}  ${s.query}`);
  return { seconds, msPerCard, totalMsPerCard, statementsPerCard: statements.total / COUNT };
}

/**
 * COUNT minimal workflows on a worker of the bench's own (its own task queue and bundle), started
 * eagerly through the worker's connection as the service's relay starts a card's: the dev server's
 * CPU per workflow, and the bench process's (the SDK's worker and client that start and run them, and
 * the bench's count of the running ones every 100 ms): what a card's workflow costs a worker before any
 * of the card's own work.
 */
async function minimalWorkflows(ctx: BenchContext, run: string): Promise<{ temporal: number; sdk: number }> {
  await installTemporalRuntime(); // its logs at WARN, like the service's
  const workflowsPath = fileURLToPath(new URL('../floor-workflow.ts', import.meta.url));
  const workflowBundle = await bundleWorkflowCode({ workflowsPath, logger: { ...console, trace: () => {}, debug: () => {}, info: () => {}, log: () => {} } });
  const connection = await NativeConnection.connect({ address: ctx.config.temporal.address! });
  const namespace = ctx.config.temporal.namespace;
  const taskQueue = `bench-floor-${run}`;
  let steps = 0;
  const worker = await Worker.create({
    connection,
    namespace,
    taskQueue,
    workflowBundle,
    activities: { floorStep: async () => void steps++ },
    maxConcurrentWorkflowTaskExecutions: 200,
    maxConcurrentLocalActivityExecutions: 200,
    workflowTaskPollerBehavior: { type: 'simple-maximum', maximum: 40 },
  });
  const client = new Client({ connection, namespace });
  const floorMs = { temporal: 0, sdk: 0 };
  await worker.runUntil(async () => {
    const temporalBefore = await ctx.temporalCounters();
    const before = ctx.cpu();
    let next = 0;
    const starter = async () => {
      while (next < COUNT) {
        const workflowId = `bench-floor/${run}/${next++}`;
        await client.workflow.start('minimalWorkflow', { workflowId, taskQueue, requestEagerStart: true });
      }
    };
    await Promise.all(Array.from({ length: 32 }, starter));
    const query = `TaskQueue = '${taskQueue}' AND ExecutionStatus = 'Running'`;
    while (steps < COUNT || (await client.workflow.count(query)).count > 0) await sleep(100);
    const after = ctx.cpu();
    const msEach = (process: string) => ((after[process]! - before[process]!) * 1000) / COUNT;
    floorMs.temporal = msEach('temporal');
    floorMs.sdk = msEach(BENCH_PROCESS);
    console.log(
      `${COUNT} minimal workflows (start, one local activity, complete): Temporal ${floorMs.temporal.toFixed(1)} ms each; CPU: ${cpuSplit(before, after)}`,
    );
    console.log(`Temporal dev server meanwhile: ${describeTemporalWork(temporalBefore, await ctx.temporalCounters())}`);
  });
  await connection.close();
  return floorMs;
}

const loadAverage = () => os.loadavg()[0]!.toFixed(1);
