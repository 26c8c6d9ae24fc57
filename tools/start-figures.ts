/**
 * What `npm start` costs a self-hoster: the time to ready and the resident memory of its whole
 * process tree (npm, Node, the Temporal dev server, PostgreSQL and its backends) once idle.
 *
 *   sh bin/with-toolchain.sh node tools/start-figures.ts                 a start on a fresh DATA_DIR, then a second start on it
 *   sh bin/with-toolchain.sh node tools/start-figures.ts --empty-cache   the first start also with an empty tool cache (LCS_CACHE_DIR)
 *   sh bin/with-toolchain.sh node tools/start-figures.ts --without-npm   the same starts through bin/start.sh (no npm process in the tree)
 *   sh bin/with-toolchain.sh node tools/start-figures.ts --idle=300      read the tree 300 s after ready instead of IDLE_SECONDS
 *
 * It runs `npm start` (MODEL_PROVIDER=fake, free ports) as a self-hoster would, waits for its
 * "Ready" line, then IDLE_SECONDS, and reads every process of the tree from /proc: each one's resident
 * set, and the tree's memory with each page counted once (./resident-pages.ts), which is what the
 * machine holds for it: npm's Node and the service's map the same binary. The clone's
 * node_modules is left as it is (a fresh clone's `npm ci` is timed by bin/with-toolchain.sh itself).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePorts } from '../src/platform/free-port.ts';
import { residentMemory } from './resident-pages.ts';

/** The issue's measure; the Temporal dev server's heap still grows for minutes after (docs/performance.md, "Idle memory"). */
const IDLE_SECONDS = Number(/^--idle=(\d+)$/.exec(process.argv.find((arg) => arg.startsWith('--idle=')) ?? '')?.[1] ?? 30);
const root = fileURLToPath(new URL('..', import.meta.url));
const emptyCache = process.argv.includes('--empty-cache');
/** What a self-hoster runs: `npm start`, or bin/start.sh, which leaves no npm process waiting beside the service. */
const [program, programArgs]: [string, string[]] = process.argv.includes('--without-npm') ? ['sh', ['bin/start.sh']] : ['npm', ['start']];

interface Proc {
  pid: number;
  ppid: number;
  name: string;
  rssMb: number;
  /** Private memory (heap, stacks): what a second process of the same program adds. */
  anonMb: number;
}

function processes(): Proc[] {
  const all: Proc[] = [];
  for (const dir of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const status = readFileSync(`/proc/${dir}/status`, 'utf8');
      const field = (name: string) => /^(\S+):\s+(.*)$/m.exec(status.split('\n').find((l) => l.startsWith(`${name}:`)) ?? '')?.[2] ?? '';
      const mb = (name: string) => Number.parseInt(field(name) || '0', 10) / 1024;
      all.push({ pid: Number(dir), ppid: Number(field('PPid')), name: field('Name'), rssMb: mb('VmRSS'), anonMb: mb('RssAnon') });
    } catch {
      /* gone meanwhile */
    }
  }
  return all;
}

/** The process and all its descendants. */
function tree(rootPid: number): Proc[] {
  const all = processes();
  const members = all.filter((p) => p.pid === rootPid);
  for (let i = 0; i < members.length; i++) members.push(...all.filter((p) => p.ppid === members[i]!.pid));
  return members;
}

async function start(dataDir: string, env: Record<string, string>): Promise<{ seconds: number; setup: string[] }> {
  const [port, ui, metrics] = await freePorts(3);
  const started = performance.now();
  const child = spawn(program, programArgs, {
    cwd: root,
    env: {
      ...withoutToolchain(process.env),
      ...env,
      MODEL_PROVIDER: 'fake',
      DATA_DIR: dataDir,
      PORT: String(port),
      TEMPORAL_UI_PORT: String(ui),
      METRICS_PORT: String(metrics),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group: stopped whole at the end
  });
  const setup: string[] = [];
  createInterface({ input: child.stderr }).on('line', (line) => {
    if (line.startsWith('[set-up]')) setup.push(line);
  });
  const ready = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${program} ${programArgs.join(' ')} exited with ${code} before it was ready`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.includes('Ready ')) resolve(line);
    });
  });
  const seconds = (performance.now() - started) / 1000;
  console.log(`ready in ${seconds.toFixed(1)} s; the service says: ${/Ready [^"]*/.exec(ready)?.[0] ?? ready}`);
  for (const line of setup) console.log(`  ${line}`);
  await sleep(IDLE_SECONDS * 1000);
  const members = tree(child.pid!);
  // The processes of one program (PostgreSQL's backends) share its binary and shared memory: the
  // largest one counts whole, each other one its private memory.
  const byName = Map.groupBy(members, (p) => p.name);
  const parts = [...byName].map(([name, group]) => {
    const largest = group.reduce((a, b) => (b.rssMb > a.rssMb ? b : a));
    const mb = largest.rssMb + group.filter((p) => p !== largest).reduce((sum, p) => sum + p.anonMb, 0);
    return {
      text: `${name}${group.length > 1 ? ` ×${group.length}` : ''} ${mb.toFixed(0)} (private ${group.reduce((s, p) => s + p.anonMb, 0).toFixed(0)})`,
      mb,
    };
  });
  const total = parts.reduce((sum, p) => sum + p.mb, 0);
  console.log(`idle ${IDLE_SECONDS} s after ready: ${total.toFixed(0)} MB resident, MB: ${parts.map((p) => p.text).join(', ')}`);
  const resident = residentMemory(members.map((p) => p.pid));
  const own = [...byName].map(([name, group]) => {
    const mb = group.reduce((sum, p) => sum + (resident.privateMbByPid.get(p.pid) ?? 0), 0);
    return `${name} ${mb.toFixed(0)}`;
  });
  console.log(`  each page counted once: ${resident.uniqueMb.toFixed(0)} MB; private pages, MB: ${own.join(', ')}; the rest maps files and shared memory`);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid!, 'SIGINT');
  await exited;
  return { seconds, setup };
}

/**
 * What bin/with-toolchain.sh exported for this tool is not the start's: its launch time and, for an
 * empty cache, the tools it found (Node 24 and the Temporal CLI, on PATH and in TEMPORAL_CLI_PATH).
 */
function withoutToolchain(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { LCS_LAUNCHED_AT_MS: _launched, TEMPORAL_CLI_PATH: cli, ...rest } = env;
  if (!emptyCache) return { ...rest, ...(cli ? { TEMPORAL_CLI_PATH: cli } : {}) };
  const found = (dir: string) => dir.includes(`${path.sep}language-capture${path.sep}`) || dir.startsWith(root);
  return {
    ...rest,
    PATH: (rest.PATH ?? '')
      .split(':')
      .filter((dir) => !found(dir))
      .join(':'),
  };
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lcs-start-'));
const cacheDir = emptyCache ? mkdtempSync(path.join(os.tmpdir(), 'lcs-cache-')) : null;
try {
  console.log(`First start (fresh DATA_DIR${cacheDir ? ', empty LCS_CACHE_DIR' : ''}), load average ${os.loadavg()[0]!.toFixed(1)}:`);
  await start(dataDir, cacheDir ? { LCS_CACHE_DIR: cacheDir } : {});
  console.log(`Second start, load average ${os.loadavg()[0]!.toFixed(1)}:`);
  await start(dataDir, cacheDir ? { LCS_CACHE_DIR: cacheDir } : {});
} finally {
  rmSync(dataDir, { recursive: true, force: true });
  if (cacheDir) rmSync(cacheDir, { recursive: true, force: true });
}
