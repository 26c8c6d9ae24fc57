/**
 * The benchmark's world: embedded PostgreSQL in a temp dir, a headless Temporal dev server, the
 * fake model provider, the real app on 127.0.0.1 (high rate limits, silent logs) and a worker
 * with its outbox relay — all in this process, like `npm start`. Scenarios get a BenchContext.
 */
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import autocannon from 'autocannon';
import { z } from 'zod';
import { buildApp } from '../src/http/app.ts';
import type { App } from '../src/http/deps.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { createOrm, migrate, type Orm } from '../src/db/orm.ts';
import { startFakeProvider, type FakeProvider } from '../tools/fake-provider/server.ts';
import { createModelClient } from '../src/model/model-client.ts';
import { startEmbeddedPostgres } from '../src/platform/embedded-postgres.ts';
import { connectTemporal } from '../src/temporal/connection.ts';
import { startTemporalDevServer } from '../src/platform/temporal-dev-server.ts';
import { runWorker } from '../src/worker/worker.ts';

export interface BenchUser {
  userId: string;
  token: string;
  cookie: string;
}

export interface SummaryRow {
  scenario: string;
  metric: string;
  value: string;
}

export interface BenchContext {
  baseUrl: string;
  config: Config;
  orm: Orm;
  temporal: Client;
  fake: FakeProvider;
  /** A signed-up user with languages en/fr, a write token and a practically unlimited balance. */
  createUser(): Promise<BenchUser>;
  /** Runs autocannon against the app; the caller sets requests, duration and connections. */
  load(options: Omit<autocannon.Options, 'url'>): Promise<autocannon.Result>;
  /** Adds a line to the summary table printed at the end. */
  report(scenario: string, metric: string, value: string): void;
  readonly summary: SummaryRow[];
}

/**
 * Bench-only routes, registered before the app listens (never part of the production app).
 * POST /bench/floor is the FLOOR for a capture: the same route guards as POST /api/library
 * (bearer auth, model rate-limit bucket, language check) and one INSERT of a similar row.
 */
async function addBenchRoutes(app: App, orm: Orm): Promise<void> {
  await orm.em.fork().execute(`CREATE TABLE IF NOT EXISTS bench_floor_cards (
    id uuid PRIMARY KEY, user_id uuid NOT NULL, text text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
  app.post('/bench/floor', {
    config: { modelBacked: true, requiresLanguages: true },
    schema: { hide: true, body: z.object({ text: z.string().min(1).max(1000) }) },
  }, async (request, reply) => {
    const id = randomUUID();
    await orm.em.fork().execute(`INSERT INTO bench_floor_cards (id, user_id, text) VALUES (?, ?, ?)`, [id, request.principal!.userId, request.body.text]);
    return reply.code(202).send({ id });
  });
}

export async function startBench(): Promise<BenchContext & { close(): Promise<void> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lcs-bench-'));
  chmodSync(dir, 0o755); // PostgreSQL runs as an unprivileged user and must reach its data dir
  const [db, dev, fake] = await Promise.all([
    startEmbeddedPostgres({ dataDir: dir }),
    startTemporalDevServer({ uiPort: null }),
    startFakeProvider(),
  ]);
  const config = loadConfig({
    DATABASE_URL: db.url,
    TEMPORAL_ADDRESS: dev.address,
    TEMPORAL_TASK_QUEUE: 'bench',
    OPENROUTER_BASE_URL: fake.baseUrl,
    OPENROUTER_API_KEY: 'bench',
    RATE_LIMIT_MAX: '100000000',
    RATE_LIMIT_MODEL_MAX: '100000000',
    RATE_LIMIT_ADDRESS_MAX: '100000000',
    RATE_LIMIT_SIGNUP_MAX: '100000000',
    LOG_LEVEL: 'silent',
    PORT: '0',
  });
  const orm = await createOrm(db.url, { poolMax: 20 });
  await migrate(orm);
  const temporal = await connectTemporal(dev.address, config.temporal.namespace);
  const model = createModelClient(config.model);

  const app = await buildApp({ config, orm, temporal, model }, { logger: false });
  await addBenchRoutes(app, orm);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  config.allowedOrigins.push(baseUrl);

  const worker = await runWorker({ config, orm, model, temporal });

  const summary: SummaryRow[] = [];
  const call = async (method: string, url: string, headers: Record<string, string>, body?: unknown) => {
    const res = await fetch(baseUrl + url, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? null : JSON.stringify(body) });
    if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${await res.text()}`);
    return { res, body: (await res.json()) as any };
  };

  return {
    baseUrl, config, orm, temporal, fake, summary,
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
    report(scenario, metric, value) { summary.push({ scenario, metric, value }); },
    async close() {
      await app.close();
      await worker.stop();
      await temporal.connection.close();
      await orm.close();
      await fake.close();
      await dev.stop();
      await db.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Prints rows as an aligned text table. */
export function printTable(rows: SummaryRow[]): void {
  const widths = [11, 44].map((min, i) => Math.max(min, ...rows.map((r) => (i === 0 ? r.scenario : r.metric).length)));
  const line = (a: string, b: string, c: string) => `${a.padEnd(widths[0]!)}  ${b.padEnd(widths[1]!)}  ${c}`;
  console.log(line('scenario', 'metric', 'value'));
  console.log('-'.repeat(widths[0]! + widths[1]! + 20));
  for (const r of rows) console.log(line(r.scenario, r.metric, r.value));
}
