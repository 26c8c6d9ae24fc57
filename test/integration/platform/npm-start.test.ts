import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import pg from 'pg';
import { freePorts } from '../../../src/platform/free-port.ts';
import { spawnService, waitForHttp, type ServiceProcess } from '../../support/processes.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { api, bodyOf, expectStatus, type Target } from '../../support/api.ts';

// `npm start` itself (src/main.ts) as a child process, with its own embedded PostgreSQL and
// Temporal dev server under a fresh DATA_DIR: the test kills those and watches it recover.
let main: ServiceProcess;
let dataDir: string;
/** The service `npm start` runs: its API on 127.0.0.1, its own origin on localhost. */
let service: Target;
let user: TestUser;
const pids = new Set<number>();

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'lcs-npm-start-'));
  // Private (0700), as `mktemp -d` makes it: as root, npm start must open it to PostgreSQL itself (issue 24, finding 5).
  const [port, metricsPort, uiPort] = await freePorts(3);
  main = spawnService('src/main.ts', {
    MODEL_PROVIDER: 'fake',
    DATA_DIR: dataDir,
    PORT: String(port),
    METRICS_PORT: String(metricsPort),
    TEMPORAL_UI_PORT: String(uiPort),
    LOG_LEVEL: 'info',
    DATABASE_URL: '',
    TEMPORAL_ADDRESS: '',
  });
  await waitForHttp(`http://127.0.0.1:${port}/readyz`, 180_000, main);
  service = { baseUrl: `http://127.0.0.1:${port}`, origin: `http://localhost:${port}` };
  user = await newUser(service);
}, 200_000);

afterAll(async () => {
  if (main) {
    main.child.kill('SIGTERM');
    const code = await Promise.race([main.exited, new Promise((r) => setTimeout(() => r('timeout'), 30_000))]);
    if (code === 'timeout') await main.kill('SIGKILL');
  }
  // The dependencies it ran (and restarted) must not outlive it; end any that did, by their id.
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone, as it should be */
    }
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

/** The pid logged with the last line whose message is `msg`. */
function loggedPid(msg: string): number {
  const line = main
    .output()
    .split('\n')
    .filter((l) => l.includes(`"msg":"${msg}"`))
    .at(-1);
  expect(line, `no log line "${msg}"`).toBeDefined();
  const pid = JSON.parse(line!).pid as number;
  pids.add(pid);
  return pid;
}

/** Captures `text` (retrying while the service answers 503) and waits until its card is ready. */
async function captureUntilReady(text: string) {
  const card = await vi.waitFor(
    async () => {
      const res = await api(service, { token: user.token, expected5xx: [503] }).POST('/api/library', { body: { text } });
      expectStatus(res, 202);
      return res.body.card;
    },
    { timeout: 60_000, interval: 500 },
  );
  await vi.waitFor(
    async () => {
      const res = await api(service, { token: user.token, expected5xx: [503] }).GET('/api/library/{cardId}', { params: { path: { cardId: card.cardId } } });
      expect(bodyOf(res, 200).card.enrichmentStatus).toBe('ready');
    },
    { timeout: 90_000, interval: 500 },
  );
}

it('restarts its Temporal dev server after a SIGKILL, says so loudly, and a capture made after reaches ready', async () => {
  await captureUntilReady('before any fault');
  const pid = loggedPid('Temporal dev server running');
  process.kill(pid, 'SIGKILL');
  await vi.waitFor(() => expect(main.output()).toContain('"msg":"Temporal dev server restarted"'), { timeout: 60_000, interval: 200 });
  expect(main.output()).toMatch(/"level":50,[^\n]*"msg":"Temporal dev server exited unexpectedly; restarting it"/);
  loggedPid('Temporal dev server restarted');
  expect((await api(service).GET('/healthz')).status).toBe(200);
  await captureUntilReady('after the dev server was killed');
}, 240_000);

it('restarts its PostgreSQL after a SIGKILL, and a capture made after reaches ready', async () => {
  const pid = loggedPid('embedded PostgreSQL running');
  process.kill(pid, 'SIGKILL');
  await vi.waitFor(() => expect(main.output()).toContain('"msg":"embedded PostgreSQL restarted"'), { timeout: 60_000, interval: 200 });
  expect(main.output()).toMatch(/"level":50,[^\n]*"msg":"embedded PostgreSQL exited unexpectedly; restarting it"/);
  loggedPid('embedded PostgreSQL restarted');
  await captureUntilReady('after the database was killed');
  expect(main.child.exitCode).toBeNull(); // still the same process
}, 240_000);

it('runs its PostgreSQL, restarted too, with the settings of a small server, and room for its pool and an operator beside it', async () => {
  const url = readFileSync(path.join(dataDir, 'database-url'), 'utf8');
  // The service's pool (10), its LISTEN connection and an operator's command (`npm run ops`, 2) at once, and more.
  const clients = Array.from({ length: 20 }, () => new pg.Client({ connectionString: url }));
  try {
    await Promise.all(clients.map((client) => client.connect()));
    const settings = await clients[0]!.query<{ name: string; setting: string; unit: string | null }>(
      `SELECT name, setting, unit FROM pg_settings WHERE name IN ('max_connections', 'shared_buffers', 'wal_buffers', 'io_method') ORDER BY name`,
    );
    expect(settings.rows).toEqual([
      { name: 'io_method', setting: 'sync', unit: null },
      { name: 'max_connections', setting: '40', unit: null },
      { name: 'shared_buffers', setting: String((64 * 1024) / 8), unit: '8kB' },
      { name: 'wal_buffers', setting: String(1024 / 8), unit: '8kB' },
    ]);
  } finally {
    await Promise.all(clients.map((client) => client.end().catch(() => {})));
  }
});

it('stops in order on Ctrl-C, which reaches its PostgreSQL and Temporal too and may come twice, and exits 0', async () => {
  const database = loggedPid('embedded PostgreSQL restarted');
  const temporal = loggedPid('Temporal dev server restarted');
  const before = main.output().length;
  // A terminal sends SIGINT to the whole process group; npm forwards it to the service once more.
  for (const pid of [main.child.pid!, database, temporal]) process.kill(pid, 'SIGINT');
  setTimeout(() => main.child.kill('SIGINT'), 20);
  const code = await Promise.race([main.exited, new Promise((r) => setTimeout(() => r('timeout'), 30_000))]);
  const shutdown = main.output().slice(before);
  expect(code, shutdown).toBe(0);
  const stopped = [...shutdown.matchAll(/"msg":"stopped: ([^"]+)"/g)].map((m) => m[1]);
  expect(stopped).toEqual([
    'HTTP server',
    'metrics listener',
    'worker',
    'database and Temporal clients',
    'Temporal dev server',
    'embedded PostgreSQL',
    'fake model provider',
  ]);
  expect(shutdown).not.toContain('exited unexpectedly');
  for (const pid of [database, temporal]) expect(() => process.kill(pid, 0)).toThrow();
}, 60_000);
