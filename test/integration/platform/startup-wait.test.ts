import { afterAll, expect, inject, it } from 'vitest';
import { freePort } from '../../../src/platform/free-port.ts';
import { startPrivateDatabase, type PrivateDatabase } from '../../support/private-database.ts';
import { spawnService, waitForHttp, type ServiceProcess } from '../../support/processes.ts';

// An API or worker started before its database (a host booting, a supervisor restarting all at
// once) waits for it, saying so, instead of crashing into a restart loop; past the documented
// deadline it exits non-zero with one line a supervisor's log shows.
let db: PrivateDatabase | undefined;
const processes: ServiceProcess[] = [];
afterAll(async () => {
  await Promise.all(processes.map((p) => p.kill()));
  await db?.close();
});

function start(entry: string, env: Record<string, string>): ServiceProcess {
  const infra = inject('infra');
  const proc = spawnService(entry, {
    TEMPORAL_ADDRESS: infra.temporalAddress,
    TEMPORAL_TASK_QUEUE: `startup-wait-${entry.includes('worker') ? 'w' : 'a'}`,
    OPENROUTER_BASE_URL: 'http://127.0.0.1:9/api/v1',
    OPENROUTER_API_KEY: 'test-key',
    WORKFLOW_BUNDLE_PATH: infra.workflowBundlePath,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    ...env,
  });
  processes.push(proc);
  return proc;
}

it('an API and a worker started while PostgreSQL is down wait for it, and serve once it is up', async () => {
  db = await startPrivateDatabase();
  await db.stop();
  const port = await freePort();
  const api = start('src/http/server.ts', { DATABASE_URL: db.url, PORT: String(port) });
  const worker = start('src/worker/main.ts', { DATABASE_URL: db.url });
  // Several waits each: they keep retrying, and neither has exited meanwhile.
  const retries = (p: ServiceProcess) => p.output().split('PostgreSQL is not reachable yet; retrying').length - 1;
  await expect.poll(() => Math.min(retries(api), retries(worker)), { timeout: 60_000, interval: 200 }).toBeGreaterThanOrEqual(3);
  expect(api.child.exitCode).toBeNull();
  expect(worker.child.exitCode).toBeNull();

  await db.start();
  await waitForHttp(`http://127.0.0.1:${port}/readyz`, 30_000, api);
  await expect.poll(() => worker.output(), { timeout: 30_000 }).toContain('worker running');
}, 150_000);

it('past STARTUP_TIMEOUT_SECONDS it exits 1, with one line that names what was away and the setting', async () => {
  const port = await freePort();
  const api = start('src/http/server.ts', {
    DATABASE_URL: `postgres://nobody:x@127.0.0.1:${await freePort()}/none`,
    PORT: String(port),
    STARTUP_TIMEOUT_SECONDS: '3',
    LOG_LEVEL: 'silent',
  });
  expect(await api.exited).toBe(1);
  expect(api.output().trim()).toMatch(/^PostgreSQL was not reachable within 3 s \(STARTUP_TIMEOUT_SECONDS\): .+$/);
}, 90_000);

it('Temporal away at start is waited for the same way, then named in the one line', async () => {
  const api = start('src/http/server.ts', {
    DATABASE_URL: db!.url,
    TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`,
    PORT: String(await freePort()),
    STARTUP_TIMEOUT_SECONDS: '10',
  });
  expect(await api.exited).toBe(1);
  expect(api.output()).toContain('Temporal is not reachable yet; retrying');
  expect(api.output().trim().split('\n').at(-1)).toMatch(/^Temporal was not reachable within 10 s \(STARTUP_TIMEOUT_SECONDS\): .+$/);
}, 90_000);
