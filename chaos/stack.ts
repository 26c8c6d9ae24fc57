/**
 * The whole service for one chaos run, every part its own process: PostgreSQL, the Temporal
 * dev server, the fake provider (300–800 ms per answer), two APIs and two workers.
 */
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { FakeStats } from '../src/model/fake-provider/server.ts';
import { freePort } from '../src/platform/free-port.ts';
import { AnswerHoldingProxy } from './answer-hold.ts';
import { Database, openLog, type ProcessExit, repoRoot, spawnNode, SupervisedProcess, TemporalServer, waitForHttp, waitForOutput } from './processes.ts';

export const TASK_QUEUE = 'chaos';
/** A realistic small call (about 100 tokens at gpt-4o-mini prices): 2 credits a card, 1 a translation. */
export const FAKE_COST_USD = '0.000015';
const START_TIMEOUT_MS = 180_000;
/**
 * Every simulated user connects from 127.0.0.1, where real ones would each have an address of
 * their own: the per-address limits (requests before authentication, sign-ups) would otherwise
 * count the whole load as one client. The per-user limits stay at their defaults.
 */
const ONE_ADDRESS_FOR_ALL_USERS = { RATE_LIMIT_ADDRESS_MAX: '1000000', RATE_LIMIT_SIGNUP_MAX: '10000' };

interface Api {
  name: string;
  /** Where clients reach it: through its proxy. */
  baseUrl: string;
  proxy: AnswerHoldingProxy;
  process: SupervisedProcess;
}

export interface ChaosStack {
  dir: string;
  db: Database;
  temporal: TemporalServer;
  fakeOrigin: string;
  apis: Api[];
  workers: SupervisedProcess[];
  exits: ProcessExit[];
  close(): Promise<void>;
}

export async function startStack(dir: string, serviceEnv: Record<string, string>): Promise<ChaosStack> {
  const exits: ProcessExit[] = [];
  const [db, temporal, fake] = await Promise.all([Database.start(dir), TemporalServer.start(dir), startFake(dir)]);
  const env = {
    DATABASE_URL: db.url,
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_TASK_QUEUE: TASK_QUEUE,
    OPENROUTER_BASE_URL: `${fake.origin}/api/v1`,
    OPENROUTER_API_KEY: 'chaos',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    ...ONE_ADDRESS_FOR_ALL_USERS,
    ...serviceEnv,
  };
  const apis: Api[] = [];
  for (const name of ['api-a', 'api-b']) {
    const port = await freePort();
    const proxy = await AnswerHoldingProxy.start(port);
    const baseUrl = proxy.url;
    const ready = (child: ChildProcess) => waitForHttp(`http://127.0.0.1:${port}/healthz`, child, START_TIMEOUT_MS);
    const process = new SupervisedProcess(
      name,
      path.join(repoRoot, 'src/http/server.ts'),
      { ...env, PORT: String(port), PUBLIC_ORIGIN: baseUrl },
      ready,
      dir,
      exits,
    );
    apis.push({ name, baseUrl, proxy, process });
  }
  const workerReady = (child: ChildProcess) => waitForOutput(child, 'worker running', START_TIMEOUT_MS);
  const workers = ['worker-a', 'worker-b'].map((name) => new SupervisedProcess(name, path.join(repoRoot, 'src/worker/main.ts'), env, workerReady, dir, exits));
  // The first API migrates the empty database alone; the rest start together.
  await apis[0]!.process.start();
  await Promise.all([apis[1]!.process.start(), ...workers.map((w) => w.start())]);

  return {
    dir,
    db,
    temporal,
    fakeOrigin: fake.origin,
    apis,
    workers,
    exits,
    async close() {
      await Promise.allSettled([...apis.map((a) => a.process.stop()), ...workers.map((w) => w.stop())]);
      await Promise.allSettled(apis.map((a) => a.proxy.close()));
      fake.child.kill('SIGTERM');
      await Promise.allSettled([temporal.stop(), db.stop()]);
    },
  };
}

async function startFake(dir: string): Promise<{ origin: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawnNode(path.join(repoRoot, 'src/model/fake-provider/server.ts'), [String(port)], {}, openLog(dir, 'fake-provider'));
  const origin = `http://127.0.0.1:${port}`;
  await waitForHttp(`${origin}/__fake/stats`, child, START_TIMEOUT_MS);
  await steerFake(origin, 'latency', { minMs: 300, maxMs: 800 });
  await steerFake(origin, 'cost', { cost: FAKE_COST_USD });
  return { origin, child };
}

/** POSTs to the fake's `/__fake/<action>` control endpoint. */
export async function steerFake(origin: string, action: string, body: unknown): Promise<void> {
  const res = await fetch(`${origin}/__fake/${action}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`fake provider refused ${action}: ${res.status} ${await res.text()}`);
}

export async function fakeStatsAt(origin: string): Promise<FakeStats> {
  return (await (await fetch(`${origin}/__fake/stats`)).json()) as FakeStats;
}
