import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { ImportFileError } from '../../../domain/imports.ts';

/** A SQLite database from an upload, opened in memory under rules that let a query read it and do nothing else. */
export interface UntrustedSqlite {
  /** Its tables' names. */
  tables: Set<string>;
  all<T>(query: string, ...params: SQLInputValue[]): T[];
  get<T>(query: string, ...params: SQLInputValue[]): T | undefined;
  iterate<T>(query: string, ...params: SQLInputValue[]): Iterable<T>;
  close(): void;
}

/** SQLite's authorizer codes (sqlite3.h) that an upload's readers allow or deny. */
export const SQLITE_AUTH = { OK: 0, DENY: 1, READ: 20, SELECT: 21, FUNCTION: 31 } as const;
/** The functions a reader's queries call. */
const FUNCTIONS = new Set(['count']);

/**
 * Opens `bytes` (a whole SQLite file) as an in-memory copy: nothing touches the disk, nothing the
 * file holds runs. Its schema may hold no view, trigger or generated column (a generated column
 * is code that runs as it is read); `trusted_schema` is off and defensive mode on; an authorizer
 * lets queries read only `readable` tables and call only count(). `what` names the file in messages.
 */
export function openUntrustedSqlite(
  bytes: Uint8Array,
  what: string,
  readable: readonly string[],
  options: { collations?: readonly string[] } = {},
): UntrustedSqlite {
  const db = new DatabaseSync(':memory:');
  try {
    try {
      // A database in WAL mode (Anki's own) cannot be opened from memory: its header is set back to a rollback journal, on a copy.
      const copy = bytes.length > 19 && (bytes[18] === 2 || bytes[19] === 2) ? Uint8Array.from(bytes) : bytes;
      if (copy !== bytes) copy[18] = copy[19] = 1;
      db.deserialize(copy);
      db.enableDefensive(true);
      db.exec('PRAGMA trusted_schema = OFF');
    } catch (error) {
      throw damagedSqlite(what, error);
    }
    let schema: { type: string; name: string; sql: string | null }[];
    try {
      schema = db.prepare(`SELECT type, name, sql FROM sqlite_master`).all() as typeof schema;
    } catch (error) {
      throw damagedSqlite(what, error);
    }
    const code = schema.find((s) => s.type === 'view' || s.type === 'trigger' || (s.type === 'table' && /\bGENERATED\s+ALWAYS\b|\bAS\s*\(/i.test(s.sql ?? '')));
    if (code) {
      throw new ImportFileError(
        'damaged_sqlite',
        `This ${what} holds ${code.type === 'table' ? 'a generated column' : `a ${code.type}`} (${code.name}); it is refused.`,
      );
    }
    // An application's own collation (Anki's unicase) leaves SQLite no plan for its tables (not even a scan of a WITHOUT ROWID
    // one): on this copy, the schema's text names NOCASE instead. Only full scans are made, so an index's order never matters.
    const foreign = (options.collations ?? []).filter(
      (name) => /^\w+$/.test(name) && schema.some((s) => new RegExp(`COLLATE\\s+${name}\\b`, 'i').test(s.sql ?? '')),
    );
    if (foreign.length) {
      try {
        db.enableDefensive(false);
        db.exec('PRAGMA writable_schema = ON');
        for (const name of foreign) {
          db.prepare(`UPDATE sqlite_master SET sql = replace(sql, ?, 'COLLATE NOCASE') WHERE sql LIKE ?`).run(`COLLATE ${name}`, `%COLLATE ${name}%`);
        }
        db.exec('PRAGMA writable_schema = RESET');
      } catch (error) {
        throw damagedSqlite(what, error);
      }
    }
    db.enableDefensive(true);
    const tables = new Set(schema.filter((s) => s.type === 'table').map((s) => s.name));
    const allowed = new Set([...readable, 'sqlite_master', 'sqlite_schema']);
    db.setAuthorizer((action, first, second) => {
      if (action === SQLITE_AUTH.SELECT) return SQLITE_AUTH.OK;
      if (action === SQLITE_AUTH.READ && first !== null && allowed.has(first)) return SQLITE_AUTH.OK;
      if (action === SQLITE_AUTH.FUNCTION && second !== null && FUNCTIONS.has(second.toLowerCase())) return SQLITE_AUTH.OK;
      return SQLITE_AUTH.DENY;
    });
    const guard = <T>(run: () => T): T => {
      try {
        return run();
      } catch (error) {
        throw damagedSqlite(what, error);
      }
    };
    return {
      tables,
      all: (query, ...params) => guard(() => db.prepare(query).all(...params) as never),
      get: (query, ...params) => guard(() => db.prepare(query).get(...params) as never),
      iterate: <T>(query: string, ...params: SQLInputValue[]) => ({
        *[Symbol.iterator]() {
          const it = guard(() => db.prepare(query).iterate(...params));
          for (;;) {
            const next = guard(() => it.next());
            if (next.done) return;
            yield next.value as T;
          }
        },
      }),
      close: () => db.close(),
    };
  } catch (error) {
    db.close();
    throw error;
  }
}

/** What an upload's SQLite that fails to read is (an ImportFileError it threw passes as it is); `what` names the file. */
export function damagedSqlite(what: string, error: unknown): ImportFileError {
  if (error instanceof ImportFileError) return error;
  return new ImportFileError('damaged_sqlite', `This ${what} is damaged and cannot be read (${(error as Error).message}).`);
}
