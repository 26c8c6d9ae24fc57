/**
 * `npm start` as a user runs it, in a process group of its own (so that stopping it reaches
 * everything it started), with its data directory and ports fixed across restarts.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createOrm, type Orm } from '../src/db/orm.ts';
import { alive, descendants } from './proc-tree.ts';
import { openLog, repoRoot, waitForHttp } from './processes.ts';
import type { FakeStats } from '../src/model/fake-provider/server.ts';
import { FAKE_COST_USD, fakeStatsAt, steerFake } from './stack.ts';

const START_TIMEOUT_MS = 240_000;
const FAKE_LINE = /FAKE model provider at (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/;

export class NpmStartProcess {
  readonly dataDir: string;
  readonly baseUrl: string;
  fakeOrigin = '';
  exited: string | null = null;
  exitedAt = 0;
  private child: ChildProcess | undefined;
  private readonly log;
  private loud = 0;
  private db: { url: string; orm: Orm } | undefined;
  /** The fake provider lives inside `npm start`: its counts of earlier instances are kept here. */
  private earlierStats: FakeStats = { received: 0, answered: {}, failed: {}, inFlight: 0, mostInFlight: 0 };

  private readonly ports: { http: number; ui: number; metrics: number };

  constructor(dir: string, ports: { http: number; ui: number; metrics: number }) {
    this.ports = ports;
    this.dataDir = path.join(dir, 'data');
    this.baseUrl = `http://127.0.0.1:${ports.http}`;
    this.log = openLog(dir, 'npm-start');
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    this.exited = null;
    this.log.write(`\n===== ${new Date().toISOString()} npm start =====\n`);
    const child = spawn('npm', ['start'], {
      cwd: repoRoot,
      detached: true, // a process group of its own
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        MODEL_PROVIDER: 'fake',
        DATA_DIR: this.dataDir,
        PORT: String(this.ports.http),
        TEMPORAL_UI_PORT: String(this.ports.ui),
        METRICS_PORT: String(this.ports.metrics),
        LOG_LEVEL: 'info',
      },
    });
    this.child = child;
    child.once('exit', (code, signal) => {
      this.exited = signal ? `killed by ${signal}` : `exit code ${code}`;
      this.exitedAt = Date.now();
    });
    for (const stream of [child.stdout, child.stderr]) {
      stream.pipe(this.log, { end: false });
      stream.on('data', (chunk: Buffer) => {
        const text = chunk.toString();
        const fake = FAKE_LINE.exec(text);
        if (fake) this.fakeOrigin = fake[1]!;
        this.loud += (text.match(/"level":(4|5|6)0/g) ?? []).length;
      });
    }
    await waitForHttp(`${this.baseUrl}/readyz`, child, START_TIMEOUT_MS);
    await steerFake(this.fakeOrigin, 'latency', { minMs: 300, maxMs: 800 });
    await steerFake(this.fakeOrigin, 'cost', { cost: FAKE_COST_USD });
  }

  /** Warn, error and fatal log lines so far. */
  loudLines(): number {
    return this.loud;
  }

  /** Stops it (SIGTERM to its group, SIGKILL to whatever is left) and starts it again; says how that went. */
  async restart(): Promise<string> {
    await this.stop();
    const started = Date.now();
    try {
      await this.start();
      return `ok, ready after ${((Date.now() - started) / 1000).toFixed(1)} s`;
    } catch (error) {
      return `FAILED: ${(error as Error).message.split('\n')[0]}`;
    }
  }

  /** What the fake provider has done, over every instance of `npm start` so far. */
  async fakeStats(): Promise<FakeStats> {
    const now = await fakeStatsAt(this.fakeOrigin).catch((): FakeStats => ({ received: 0, answered: {}, failed: {}, inFlight: 0, mostInFlight: 0 }));
    const sum = (a: Record<string, number>, b: Record<string, number>) =>
      Object.fromEntries([...new Set([...Object.keys(a), ...Object.keys(b)])].map((k) => [k, (a[k] ?? 0) + (b[k] ?? 0)]));
    const e = this.earlierStats;
    return {
      received: e.received + now.received,
      answered: sum(e.answered, now.answered),
      failed: sum(e.failed, now.failed),
      inFlight: now.inFlight,
      mostInFlight: Math.max(e.mostInFlight, now.mostInFlight),
    };
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child?.pid) return;
    this.earlierStats = await this.fakeStats();
    const family = descendants(child.pid);
    if (this.exited === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* gone */
      }
      await Promise.race([exited, sleep(30_000)]);
    }
    for (const p of [child.pid, ...family.map((f) => f.pid)]) {
      if (alive(p))
        try {
          process.kill(p, 'SIGKILL');
        } catch {
          /* gone */
        }
    }
    await this.db?.orm.close().catch(() => {});
    this.db = undefined;
  }

  /** The embedded database of the running instance (its URL changes with each start). */
  async orm(): Promise<Orm> {
    const file = path.join(this.dataDir, 'database-url');
    const url = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
    if (this.db?.url !== url) {
      await this.db?.orm.close().catch(() => {});
      this.db = { url, orm: await createOrm(url, { poolMax: 2 }) };
    }
    return this.db.orm;
  }

  /** Whether a card captured after `since` has been prepared: the whole path works again. */
  async preparedSince(since: number): Promise<boolean> {
    try {
      const [row] = await (
        await this.orm()
      ).em
        .fork()
        .execute<{ n: string }[]>(`SELECT count(*) AS n FROM cards WHERE created_at > ? AND enrichment_status = 'ready'`, [new Date(since)]);
      return Number(row?.n) > 0;
    } catch {
      return false;
    }
  }
}
