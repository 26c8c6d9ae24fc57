/**
 * The bench's processes: the API and the worker each in a process of its own (as deployed), and
 * what they and their neighbours cost: CPU time per process group over a phase, and peak RSS.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Orm } from '../src/db/orm.ts';
import { SERVICE_NODE_FLAGS, serviceProcessEnv } from '../src/platform/node-flags.ts';

export interface Service {
  pid: number;
  /** The first stdout line that matched `ready`. */
  readyLine: string;
  stop(): Promise<void>;
}

/** `BENCH_LOG_DIR=<dir> npm run bench …` keeps the API's and the worker's logs there (`API.log`, `worker.log`): a stalled run's story. */
const logDir = process.env.BENCH_LOG_DIR;

/** `BENCH_CPU_PROFILE_DIR=<dir> npm run bench …` writes a V8 CPU profile of the API and of the worker there when they stop. */
const profileFlags = process.env.BENCH_CPU_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE_DIR}`] : [];

/** Starts `node <entry>` (Node strips the types, as in production) with `env` and waits for a stdout line matching `ready`. */
export async function startService(name: string, entry: string, env: Record<string, string>, ready: RegExp): Promise<Service> {
  const child: ChildProcess = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...profileFlags, entry], {
    env: serviceProcessEnv(env),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  if (logDir) {
    mkdirSync(logDir, { recursive: true });
    const log = createWriteStream(path.join(logDir, `${name}.log`), { flags: 'a' });
    lines.on('line', (line) => log.write(`${line}\n`));
  }
  const readyLine = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within 120 s`)), 120_000);
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before it was ready`)));
    lines.on('line', (line) => {
      if (ready.test(line)) {
        clearTimeout(timer);
        resolve(line);
      }
    });
  });
  return {
    pid: child.pid!,
    readyLine,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** A process's own CPU ticks, and those of its children that exited (PostgreSQL's backends come and go). */
function stat(pid: number): { ppid: number; ticks: number; reapedTicks: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]), reapedTicks: Number(fields[13]) + Number(fields[14]) };
  } catch {
    return null;
  }
}

/** CPU seconds used so far by each group: a process, or (`withChildren`) it and its children (PostgreSQL's backends). */
export function cpuSeconds(groups: Record<string, { pid: number; withChildren?: boolean }>): Record<string, number> {
  const all = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => ({ pid: Number(d), ...stat(Number(d)) }));
  const used: Record<string, number> = {};
  for (const [name, group] of Object.entries(groups)) {
    const members = all.filter((p) => p.pid === group.pid || (group.withChildren && p.ppid === group.pid));
    const reaped = group.withChildren ? (all.find((p) => p.pid === group.pid)?.reapedTicks ?? 0) : 0;
    used[name] = (reaped + members.reduce((sum, p) => sum + (p.ticks ?? 0), 0)) / TICKS_PER_SECOND;
  }
  return used;
}

/** The CPU each group spent between two cpuSeconds() readings, as "name 1.2 s" parts. */
export function cpuSplit(before: Record<string, number>, after: Record<string, number>): string {
  return Object.keys(after)
    .map((name) => `${name} ${(after[name]! - (before[name] ?? 0)).toFixed(1)} s`)
    .join(', ');
}

/** The process's peak resident set so far (VmHWM), in MB. */
export function peakRssMb(pid: number): number {
  return Math.round(statusKb(pid, 'VmHWM') / 1024);
}

/** The process's resident set now (VmRSS), in MB (unrounded: sampled often, compared to its peak). */
export function rssMb(pid: number): number {
  return statusKb(pid, 'VmRSS') / 1024;
}

function statusKb(pid: number, field: string): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(line?.split(/\s+/)[1] ?? 0);
}

/**
 * Samples PostgreSQL's active sessions every 20 ms until the returned function is called, which
 * answers the most frequent (wait event, statement) pairs: where the database's time goes.
 */
export function sampleDatabaseWaits(orm: Orm): () => Promise<string> {
  const counts = new Map<string, number>();
  let sampling = true;
  const em = orm.em.fork();
  const sampler = (async () => {
    while (sampling) {
      const rows = await em.execute<{ what: string }[]>(
        `SELECT coalesce(wait_event_type || ':' || wait_event, 'on CPU') || ' ' || left(regexp_replace(query, '\\s+', ' ', 'g'), 36) AS what
         FROM pg_stat_activity WHERE state = 'active' AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
      );
      for (const { what } of rows) counts.set(what, (counts.get(what) ?? 0) + 1);
      await sleep(20);
    }
  })();
  return async () => {
    sampling = false;
    await sampler;
    return [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([what, n]) => `${n}× ${what}`)
      .join('; ');
  };
}
