/**
 * The benchmark's world: embedded PostgreSQL in a temp dir, a headless Temporal dev server, the
 * fake model provider (in this process, beside the load generator), the web app's build, and the API and the worker
 * each in a process of its own, as deployed (high rate limits, quiet logs), so that each one's
 * CPU and memory can be told apart. Scenarios get a BenchContext.
 */
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Client } from '@temporalio/client';
import autocannon from 'autocannon';
import { loadConfig, type Config } from '../src/config.ts';
import { createOrm, migrate, type Orm } from '../src/db/orm.ts';
import { startFakeProvider, type FakeProvider } from '../src/model/fake-provider/server.ts';
import { startEmbeddedPostgres } from '../src/platform/embedded-postgres.ts';
import { ensureWebBuild } from '../src/platform/web-build.ts';
import { connectTemporal } from '../src/temporal/connection.ts';
import { userIdKey } from '../src/temporal/search-attributes.ts';
import { readTemporalCounters, type TemporalCounters } from './temporal-counters.ts';
import { openStatementStats, STATEMENT_STATS_SETTINGS, type StatementStats } from './database-statements.ts';
import { startTemporalDevServer } from '../src/platform/temporal-dev-server.ts';
import { cpuSeconds, peakRssMb, rssMb, startService } from './processes.ts';

export interface BenchUser {
  userId: string;
  token: string;
  cookie: string;
}

export interface SummaryRow {
  scenario: string;
  metric: string;
  value: string;
  /** The same figure's floor, measured in the same run. */
  floor?: string;
  /** The goal for the figure, and whether this run met it. */
  goal?: string;
  met?: boolean;
}

interface Figure {
  floor?: string;
  goal?: string;
  met?: boolean;
}

/** The bench's own process in `cpu()`: the load it sends, the fake provider, and any worker of its own. */
export const BENCH_PROCESS = 'bench (load, fake provider)';

export interface BenchContext {
  baseUrl: string;
  /** The environment the API and the worker were started with (a scenario may start more processes like them). */
  env: Readonly<Record<string, string>>;
  config: Config;
  orm: Orm;
  temporal: Client;
  fake: FakeProvider;
  /** A signed-up user with languages en/fr, a write token and a practically unlimited balance. */
  createUser(): Promise<BenchUser>;
  /** Runs autocannon against the app; the caller sets requests, duration and connections. */
  load(options: Omit<autocannon.Options, 'url'>): Promise<autocannon.Result>;
  /** Adds a line to the summary table printed at the end; a figure with a goal also shows its floor and whether it was met. */
  report(scenario: string, metric: string, value: string, figure?: Figure): void;
  /** CPU seconds used so far by the API, the worker, PostgreSQL, the dev server and this process (load + fake provider). */
  cpu(): Record<string, number>;
  /** Peak RSS so far of the API and the worker processes, in MB. */
  peakRss(): { api: number; worker: number };
  /** RSS now of the API and the worker processes, in MB (read from /proc, so it answers while the API is busy). */
  rss(): { api: number; worker: number };
  /** The Temporal dev server's own counters so far (bench/temporal-counters.ts). */
  temporalCounters(): Promise<TemporalCounters>;
  /** PostgreSQL's count of the statements it ran (bench/database-statements.ts). */
  statements: StatementStats;
  readonly summary: SummaryRow[];
}

export async function startBench(): Promise<BenchContext & { close(): Promise<void> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lcs-bench-'));
  chmodSync(dir, 0o755); // PostgreSQL runs as an unprivileged user and must reach its data dir
  const [db, dev, fake] = await Promise.all([
    startEmbeddedPostgres({ dataDir: dir, settings: STATEMENT_STATS_SETTINGS }),
    startTemporalDevServer({ uiPort: null }),
    startFakeProvider(),
    // Before the API starts, as `npm start` does: a build made while the phone scenario loads the app would change it
    // under the measurement (once, it was also a blank first load: the API then routed only the files it found at its start).
    ensureWebBuild(),
  ]);
  const env = {
    DATABASE_URL: db.url,
    TEMPORAL_ADDRESS: dev.address,
    TEMPORAL_TASK_QUEUE: 'bench',
    OPENROUTER_BASE_URL: fake.baseUrl,
    OPENROUTER_API_KEY: 'bench',
    RATE_LIMIT_MAX: '100000000',
    RATE_LIMIT_MODEL_MAX: '100000000',
    RATE_LIMIT_ADDRESS_MAX: '100000000',
    RATE_LIMIT_SIGNUP_MAX: '100000000',
    // A bench learner captures and imports more than a free plan's library holds or an hour's imports create.
    LIBRARY_MAX_CARDS_FREE: '100000000',
    IMPORT_CARDS_PER_HOUR_FREE: '100000000',
    LOG_LEVEL: 'warn',
    PORT: '0',
  };
  const config = loadConfig(env);
  const orm = await createOrm(db.url, { poolMax: 20 });
  await migrate(orm);
  const temporal = await connectTemporal(dev.address, config.temporal.namespace);
  const statements = await openStatementStats(dir, db.url);

  const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
  const [api, worker] = await Promise.all([
    startService('API', here('./api-process.ts'), env, /^listening \d+$/),
    startService('worker', here('../src/worker/main.ts'), { ...env, LOG_LEVEL: 'info' }, /worker running/),
  ]);
  const baseUrl = `http://127.0.0.1:${api.readyLine.split(' ')[1]}`;

  const summary: SummaryRow[] = [];
  const call = async (method: string, url: string, headers: Record<string, string>, body?: unknown) => {
    const res = await fetch(baseUrl + url, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: body === undefined ? null : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${await res.text()}`);
    return { res, body: (await res.json()) as any };
  };

  return {
    baseUrl,
    env,
    config,
    orm,
    temporal,
    fake,
    statements,
    summary,
    async createUser() {
      const signup = await call('POST', '/api/auth/signup', {}, { email: `bench-${randomUUID()}@example.test`, password: 'bench password 123' });
      const cookie = signup.res.headers.get('set-cookie')!.split(';')[0]!;
      const session = { cookie, origin: baseUrl };
      await call('PUT', '/api/settings/language', session, { targetLanguage: 'en', nativeLanguage: 'fr' });
      const minted = await call('POST', '/api/tokens', session, { name: 'bench', scope: 'write' });
      await orm.em.fork().execute(`UPDATE wallets SET balance = 1000000000 WHERE user_id = ?`, [signup.body.userId]);
      return { userId: signup.body.userId, token: minted.body.token, cookie };
    },
    load: (options) => autocannon({ url: baseUrl, ...options }),
    report(scenario, metric, value, figure = {}) {
      summary.push({ scenario, metric, value, ...figure });
    },
    cpu: () =>
      cpuSeconds({
        api: { pid: api.pid },
        worker: { pid: worker.pid },
        postgres: { pid: db.pid, withChildren: true },
        temporal: { pid: dev.pid },
        [BENCH_PROCESS]: { pid: process.pid },
      }),
    peakRss: () => ({ api: peakRssMb(api.pid), worker: peakRssMb(worker.pid) }),
    rss: () => ({ api: rssMb(api.pid), worker: rssMb(worker.pid) }),
    temporalCounters: () => readTemporalCounters(dev.ports.metrics),
    async close() {
      await api.stop();
      await worker.stop();
      await temporal.connection.close();
      await orm.close();
      await statements.close();
      await fake.close();
      await dev.stop();
      await db.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Prints rows as an aligned text table: value, the floor of the same run, the goal and whether it was met. */
export function printTable(rows: SummaryRow[]): void {
  const cells = (r: SummaryRow) => [r.scenario, r.metric, r.value, r.floor ?? '', r.goal ? `${r.goal} ${r.met ? 'met' : 'NOT MET'}` : ''];
  const header = ['scenario', 'metric', 'value', 'floor (same run)', 'goal'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => cells(r)[i]!.length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  console.log(line(header));
  console.log('-'.repeat(widths.reduce((a, b) => a + b + 2, 0)));
  for (const r of rows) console.log(line(cells(r)));
}

/** Polls until `count` of the user's cards are ready (throws on a failed one or after `timeoutMs`); seconds since `started`. */
export async function waitForReady(ctx: BenchContext, userId: string, count: number, started: number, timeoutMs: number): Promise<number> {
  const em = ctx.orm.em.fork();
  for (;;) {
    const [row] = await em.execute<{ ready: string; failed: string }[]>(
      `SELECT count(*) FILTER (WHERE enrichment_status = 'ready') AS ready, count(*) FILTER (WHERE enrichment_status = 'failed') AS failed FROM cards ` +
        `WHERE user_id = ?`,
      [userId],
    );
    if (Number(row!.failed) > 0) throw new Error(`${row!.failed} preparations failed`);
    if (Number(row!.ready) >= count) return (performance.now() - started) / 1000;
    if (performance.now() - started > timeoutMs) {
      throw new Error(`only ${row!.ready}/${count} ready after ${timeoutMs / 1000} s; where the rest stand: ${await stallReport(ctx, userId)}`);
    }
    await sleep(50);
  }
}

/** Where a learner's work stands, for a run that timed out: its cards, imports and unstarted outbox rows, and its workflows in Temporal. */
async function stallReport(ctx: BenchContext, userId: string): Promise<string> {
  const em = ctx.orm.em.fork();
  const rows = async (query: string) => JSON.stringify(await em.execute(query, [userId]));
  const workflows: Record<string, number> = {};
  for await (const run of ctx.temporal.workflow.list({ query: `${userIdKey.name} = '${userId}'` })) {
    const key = `${run.type} ${run.status.name}`;
    workflows[key] = (workflows[key] ?? 0) + 1;
  }
  return [
    `cards ${await rows(`SELECT enrichment_status, count(*) FROM cards WHERE user_id = ? GROUP BY 1`)}`,
    `imports ${await rows(`SELECT state, count(*) FROM library_imports WHERE user_id = ? GROUP BY 1`)}`,
    `outbox ${await rows(
      `SELECT workflow_type, dispatched_at IS NOT NULL AS dispatched, attempts, last_error, count(*) FROM workflow_outbox ` +
        `WHERE user_id = ? GROUP BY 1, 2, 3, 4`,
    )}`,
    `workflows ${JSON.stringify(workflows)}`,
  ].join('; ');
}
