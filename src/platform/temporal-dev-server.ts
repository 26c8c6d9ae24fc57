import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { searchAttributeFlags } from '../temporal/search-attributes.ts';
import { freePorts, waitForPort } from './free-port.ts';

/** TEMPORAL_CLI_PATH, else whatever temporal/ensure-cli.sh finds or builds. */
export function resolveTemporalCli(): string {
  if (process.env.TEMPORAL_CLI_PATH) return process.env.TEMPORAL_CLI_PATH;
  const script = fileURLToPath(new URL('../../temporal/ensure-cli.sh', import.meta.url));
  return execFileSync('sh', [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
}

/** Every port the dev server listens on; `ui` is null when it runs headless. */
interface DevServerPorts {
  grpc: number;
  http: number;
  metrics: number;
  ui: number | null;
}

export interface DevServer {
  address: string;
  uiUrl: string | null;
  ports: DevServerPorts;
  pid: number;
  /** Settles when the server process exits, for whatever reason: stopped, killed, crashed. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): Promise<void>;
}

export interface DevServerOptions {
  cliPath?: string;
  dataDir?: string;
  /** The gRPC port; chosen freely when absent. A restart passes the one its clients know. */
  port?: number;
  /** The Web UI's port; null: no UI (headless); absent: chosen freely. */
  uiPort?: number | null;
  /** How many times a start may be tried with fresh ports when a freely chosen one turns out taken. */
  startAttempts?: number;
  /** Picks the four candidate ports (gRPC, HTTP, metrics, UI); tests pass one that picks a taken port. */
  choosePorts?: () => Promise<number[]>;
  log?: (line: string) => void;
}

/** A start that failed, said in one line (not the CLI's Go stack). */
export class DevServerStartError extends Error {
  readonly takenPort: number | null;
  constructor(message: string, takenPort: number | null) {
    super(message);
    this.takenPort = takenPort;
    this.name = 'DevServerStartError';
  }
}

/**
 * Starts `temporal server start-dev`: a real single-process Temporal server with SQLite
 * persistence (when `dataDir` is given), our custom search attributes registered, and the Web UI.
 * Every port it listens on is chosen here, distinct from the others: left to itself the CLI picks
 * its HTTP and metrics ports while ours are already chosen but not yet bound, and the two could
 * collide. A port taken between our choice and the CLI's bind is a failed start, retried with
 * fresh ports (only the ports the caller fixed cannot change).
 */
export async function startTemporalDevServer(options: DevServerOptions): Promise<DevServer> {
  const attempts = options.startAttempts ?? 3;
  for (let attempt = 1; ; attempt++) {
    const [grpc, http, metrics, ui] = await (options.choosePorts ?? (() => freePorts(4)))();
    const ports: DevServerPorts = {
      grpc: options.port ?? grpc!,
      http: http!,
      metrics: metrics!,
      ui: options.uiPort === null ? null : (options.uiPort ?? ui!),
    };
    try {
      return await launch(options, ports);
    } catch (error) {
      const fixed = [options.port, options.uiPort ?? undefined];
      const retryable = error instanceof DevServerStartError && error.takenPort !== null && !fixed.includes(error.takenPort);
      if (!retryable || attempt >= attempts) throw error;
      options.log?.(`port ${error.takenPort} was taken meanwhile; starting again with fresh ports`);
    }
  }
}

const START_TIMEOUT_MS = 60_000;

/**
 * The server's defaults are sized for a cluster. Each of the history service's task schedulers
 * (transfer, timer, visibility, archival, in-memory timers, and two for replication between
 * clusters) keeps 64–512 goroutines waiting, 2,240 in all; the server's own workers (the
 * scanners', the parent-close policy's, each namespace's for schedules and batches) keep 4–8
 * long polls each. Idle, that was about 15 MB of stacks on a server of one history shard whose own
 * workflows start a few times a day. A few workers per scheduler keep up with that shard
 * (`npm run bench cards`, 1,000 cards at once: CPU and time per card within the spread of the
 * defaults'); replication never runs on a single cluster. Two is the least a workflow poller
 * count may be (the Go SDK's rule: one for the sticky queue, one not).
 *
 * The CLI also turns the search attributes' cache off (so that an attribute added while it runs is
 * usable at once): every start, and every visibility record, then read the cluster's metadata from
 * its database again, 3 to 6 reads a card (`npm run bench cards`: 11.8 persistence requests per start,
 * 4.5 with the cache). Ours are created with the namespace, from its own flags (searchAttributeFlags),
 * before any service reads them; one added later by ensureSearchAttributes is seen within the cache's
 * refresh, and a start refused meanwhile is tried again by the outbox relay.
 */
const SMALL_SERVER_DYNAMIC_CONFIG: Readonly<Record<string, boolean | number | Record<string, number>>> = {
  'history.transferProcessorSchedulerWorkerCount': 16,
  'history.timerProcessorSchedulerWorkerCount': 8,
  'history.visibilityProcessorSchedulerWorkerCount': 8,
  'history.archivalProcessorSchedulerWorkerCount': 2,
  'history.memoryTimerProcessorSchedulerWorkerCount': 4,
  'history.ReplicationProcessorSchedulerWorkerCount': 2,
  'history.ReplicationLowPriorityProcessorSchedulerWorkerCount': 1,
  'worker.ScannerMaxConcurrentWorkflowTaskPollers': 2,
  'worker.ScannerMaxConcurrentActivityTaskPollers': 1,
  'worker.ParentCloseMaxConcurrentWorkflowTaskPollers': 2,
  'worker.ParentCloseMaxConcurrentActivityTaskPollers': 1,
  'worker.perNamespaceWorkerOptions': { MaxConcurrentWorkflowTaskPollers: 2, MaxConcurrentActivityTaskPollers: 1, MaxConcurrentNexusTaskPollers: 1 },
  'system.forceSearchAttributesCacheRefreshOnRead': false,
};

async function launch(options: DevServerOptions, ports: DevServerPorts): Promise<DevServer> {
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(ports.grpc),
    '--http-port',
    String(ports.http),
    '--metrics-port',
    String(ports.metrics),
    '--log-level',
    'warn',
    '--namespace',
    'default',
  ];
  const dbFile = options.dataDir ? path.join(options.dataDir, 'temporal.sqlite') : null;
  if (options.dataDir && dbFile) {
    // Workflow histories, like the rest of DATA_DIR, are for the service's own user only: the
    // folder 0700 (tightened when an older start left it 0755), its database 0600 once made.
    mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
    chmodSync(options.dataDir, 0o700);
    args.push('--db-filename', dbFile);
  }
  if (ports.ui === null) args.push('--headless');
  else args.push('--ui-port', String(ports.ui));
  args.push(...searchAttributeFlags());
  for (const [key, value] of Object.entries(SMALL_SERVER_DYNAMIC_CONFIG)) args.push('--dynamic-config-value', `${key}=${JSON.stringify(value)}`);

  const child = spawn(options.cliPath ?? resolveTemporalCli(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const log = options.log ?? (() => {});
  let recent = '';
  // The CLI prints its banner ("Temporal Server: localhost:<port>") once it is serving: an open
  // port alone may be someone else's.
  let announced: () => void;
  const banner = new Promise<void>((resolve) => {
    announced = resolve;
  });
  const collect = (d: Buffer) => {
    recent = (recent + d.toString()).slice(-20_000);
    if (new RegExp(`Temporal Server:\\s+\\S+:${ports.grpc}\\b`).test(recent)) announced();
    log(d.toString());
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const early = exited.then(({ code, signal }) => {
    throw startFailure(recent, `exited during start-up (${signal ?? `code ${code}`})`);
  });
  let timer: NodeJS.Timeout | undefined;
  const tooLong = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not serving after ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
  });
  try {
    await Promise.race([Promise.all([banner, waitForPort('127.0.0.1', ports.grpc, START_TIMEOUT_MS)]), early, tooLong]);
  } catch (error) {
    child.kill('SIGKILL');
    throw error instanceof DevServerStartError ? error : startFailure(recent, (error as Error).message);
  } finally {
    clearTimeout(timer);
  }
  early.catch(() => {});
  // The CLI makes its SQLite files with the process's umask (0644): only their owner reads them.
  if (dbFile) for (const file of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);

  // If the parent dies without stopping us (a crash, a test runner torn down), take the server along.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  void exited.then(() => process.off('exit', killOnExit));

  return {
    address: `127.0.0.1:${ports.grpc}`,
    uiUrl: ports.ui === null ? null : `http://localhost:${ports.ui}`,
    ports,
    pid: child.pid!,
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

const PORT_TAKEN = /(?:\d{1,3}(?:\.\d{1,3}){3}|localhost|\[[0-9a-f:]*\]):(\d+)\b[^\n]*address already in use/;

/**
 * The one line that says why a start failed: the CLI's `Error:` or Go's `panic:` line, else the
 * line naming a taken port, else the last line it wrote; and which port was taken, when one was.
 */
export function startFailure(output: string, fallback: string): DevServerStartError {
  const lines = output
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const line =
    lines.find((l) => l.startsWith('Error:')) ?? lines.find((l) => l.startsWith('panic:')) ?? lines.find((l) => PORT_TAKEN.test(l)) ?? lines.at(-1) ?? fallback;
  const taken = PORT_TAKEN.exec(line)?.[1] ?? PORT_TAKEN.exec(output)?.[1];
  return new DevServerStartError(`Temporal dev server did not start: ${line.replace(/^(Error|panic):\s*/, '').slice(0, 300)}`, taken ? Number(taken) : null);
}
