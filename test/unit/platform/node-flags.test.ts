import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SERVICE_ENV, SERVICE_NODE_FLAGS, serviceProcessEnv } from '../../../src/platform/node-flags.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const packageJson = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

/** What bin/start.sh hands Node: runs it on a script that prints its flags and its malloc environment. */
function startScriptRun(env: Record<string, string>): { execArgv: string[]; malloc: Record<string, string> } {
  const entry = path.join(mkdtempSync(path.join(os.tmpdir(), 'start-sh-')), 'entry.mjs');
  const malloc = `Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('MALLOC_')))`;
  writeFileSync(entry, `console.log(JSON.stringify({ execArgv: process.execArgv, malloc: ${malloc} }));`);
  const callerEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('MALLOC_')));
  const run = spawnSync('sh', [path.join(root, 'bin/start.sh'), entry], { env: { ...callerEnv, ...env }, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { execArgv: string[]; malloc: Record<string, string> };
}

describe('the service processes', () => {
  it.each([
    ['start', ''],
    ['api', ' src/http/server.ts'],
    ['worker', ' src/worker/main.ts'],
  ])('`npm run %s` runs its entry through bin/start.sh, as a self-hoster runs the service', (name, entry) => {
    expect(packageJson.scripts[name]).toBe(`exec sh bin/start.sh${entry}`);
  });

  it('bin/start.sh hands Node the service flags and environment that spawned service processes get, and Node takes them', () => {
    expect(SERVICE_NODE_FLAGS).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^--max-semi-space-size=\d+$/),
        expect.stringMatching(/^--heap-growing-percent=\d+$/),
        '--flush-baseline-code',
        expect.stringMatching(/^--bytecode-old-age=\d+$/),
      ]),
    );
    expect(SERVICE_ENV).toEqual({ MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' });
    const { execArgv, malloc } = startScriptRun({});
    expect(execArgv).toEqual(SERVICE_NODE_FLAGS);
    expect(malloc).toEqual(SERVICE_ENV);
  });

  it('bin/start.sh leaves a variable the caller set as the caller set it', () => {
    const { malloc } = startScriptRun({ MALLOC_ARENA_MAX: '4' });
    expect(malloc).toEqual({ ...SERVICE_ENV, MALLOC_ARENA_MAX: '4' });
  });

  it('a service process spawned from Node gets the same environment, under the spawner’s own and then its overrides', () => {
    const env = serviceProcessEnv({ MALLOC_ARENA_MAX: '3' });
    expect(env.MALLOC_ARENA_MAX).toBe('3');
    expect(env.MALLOC_MMAP_THRESHOLD_).toBe(process.env.MALLOC_MMAP_THRESHOLD_ ?? SERVICE_ENV.MALLOC_MMAP_THRESHOLD_);
    expect(env.PATH).toBe(process.env.PATH);
  });

  it('a service process writes its compile cache while its modules load, so a process that is killed keeps it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'compile-cache-'));
    const entry = path.join(dir, 'entry.mjs');
    // The ORM's core is some 200 modules; then the process waits to be killed, never reaching an exit that writes the cache.
    const orm = pathToFileURL(path.join(root, 'node_modules/@mikro-orm/core/index.js')).href;
    writeFileSync(entry, `await import(${JSON.stringify(orm)}); console.log('loaded'); setInterval(() => {}, 1000);`);
    const cache = path.join(dir, 'cache');
    const child = spawn('sh', [path.join(root, 'bin/start.sh'), entry], {
      env: { ...process.env, NODE_COMPILE_CACHE: cache },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.setEncoding('utf8');
    await new Promise<void>((resolve) => child.stdout.on('data', (text: string) => text.includes('loaded') && resolve()));
    child.kill('SIGKILL');
    await once(child, 'exit');
    const written = (readdirSync(cache, { recursive: true }) as string[]).filter((name) => /^[0-9a-f]{8}$/.test(path.basename(name)));
    expect(written.length).toBeGreaterThanOrEqual(100);
  }, 60_000);
});
