import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../../src/platform/embedded-postgres.ts';
import { startMigratedPostgres } from './migrated-cluster.ts';

export interface PrivateDatabase {
  url: string;
  /** Stops PostgreSQL: every connection drops, new ones are refused. */
  stop(): Promise<void>;
  /**
   * Takes it away at once (immediate shutdown, as a crash): every session ends where it stands,
   * with no lock released on the way, so no statement waiting on a lock can still commit.
   */
  crash(): Promise<void>;
  /** Starts it again on the same port and data, as after a restart. */
  start(): Promise<void>;
  /** Stops it for good and removes its data. */
  close(): Promise<void>;
}

/**
 * A migrated PostgreSQL of the test file's own, for tests that take the database away: the run's
 * shared one must stay up for every other file. It starts from a copy of the cached migrated
 * cluster (migrated-cluster.ts): a copy and a start instead of initdb and every migration.
 */
export async function startPrivateDatabase(): Promise<PrivateDatabase> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lcs-private-db-'));
  let db: EmbeddedDatabase | null = await startMigratedPostgres({ dataDir });
  const { url } = db;
  const port = Number(new URL(url).port);
  return {
    url,
    async stop() {
      await db?.stop();
      db = null;
    },
    async crash() {
      if (!db) return;
      process.kill(db.pid, 'SIGQUIT');
      await db.exited;
      db = null;
    },
    async start() {
      db ??= await startEmbeddedPostgres({ dataDir, port });
    },
    async close() {
      await db?.stop();
      db = null;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
