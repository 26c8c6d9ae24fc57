import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { ImportFileError, importRows, isSqlite, looksLike, type ParsedImport } from '../../../domain/imports.ts';
import { damagedSqlite, SQLITE_AUTH } from './untrusted-sqlite.ts';

/** The columns read, each of Kindle's own schema (system/vocabulary/vocab.db). */
const COLUMNS = { WORDS: ['id', 'word', 'stem', 'lang', 'timestamp'], LOOKUPS: ['word_key', 'usage', 'timestamp'] } as const;
type KindleTable = keyof typeof COLUMNS;

/**
 * Kindle's Vocabulary Builder database (`vocab.db`): one expression per WORDS row (its stem, else
 * the word as looked up), with the sentence it was first met in (the earliest LOOKUPS.usage) as its
 * context. Words in another language than English are left out and counted. Synchronous: it runs
 * in an import reader's worker thread (reading.ts), never on the API's thread.
 *
 * Read as hostile: Kindle's own schema only (no view, no trigger, no virtual table, no generated or
 * hidden column in the two tables read; else not_kindle), `trusted_schema` off and SQLite's
 * defensive mode on, and an authorizer that lets the two statements read the named columns of
 * WORDS and LOOKUPS and call no function. LOOKUPS is read once (no per-word subquery: a file
 * without Kindle's index cannot make it quadratic), then WORDS in order, the row cap holding as it goes.
 * The file is opened read-only and immutable by path (a WAL-mode file reads too, and no -wal/-shm file is made).
 */
export function readKindle(bytes: Uint8Array): ParsedImport {
  if (bytes.length === 0) throw new ImportFileError('empty_file', 'The file is empty.');
  if (bytes.length < 100 || !isSqlite(bytes)) {
    const what = looksLike(bytes);
    throw new ImportFileError(
      'not_sqlite',
      `This file is ${what ?? 'not a SQLite database'}; a Kindle vocab.db is one (on the Kindle: system/vocabulary/vocab.db).`,
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'lcs-import-'));
  const path = join(dir, 'vocab.db');
  try {
    writeFileSync(path, bytes, { mode: 0o600 });
    return readVocabDb(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function readVocabDb(path: string): ParsedImport {
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(`file:${path}?immutable=1`, { readOnly: true, open: true });
    db.exec('PRAGMA trusted_schema = OFF');
    db.enableDefensive(true);
  } catch (error) {
    throw damagedSqlite('SQLite file', error);
  }
  try {
    checkSchema(db);
    // Only reads of the named columns of the two tables (and the schema) from here on; no function.
    db.setAuthorizer((action, table, column) => {
      if (action === SQLITE_AUTH.SELECT) return SQLITE_AUTH.OK;
      if (action === SQLITE_AUTH.READ && table !== null && column !== null) {
        if (table === 'sqlite_master' || table === 'sqlite_schema') return SQLITE_AUTH.OK;
        if (table in COLUMNS && (COLUMNS[table as KindleTable] as readonly string[]).includes(column)) return SQLITE_AUTH.OK;
      }
      return SQLITE_AUTH.DENY;
    });
    // The earliest lookup of each word, in one pass.
    const earliest = new Map<string, { at: number; usage: string }>();
    try {
      for (const row of db.prepare(`SELECT word_key, usage, timestamp FROM LOOKUPS`).iterate() as Iterable<{
        word_key: unknown;
        usage: unknown;
        timestamp: unknown;
      }>) {
        if (typeof row.word_key !== 'string' || typeof row.usage !== 'string' || row.usage === '') continue;
        const at = Number(row.timestamp) || 0;
        const seen = earliest.get(row.word_key);
        if (!seen || at < seen.at) earliest.set(row.word_key, { at, usage: row.usage });
      }
    } catch (error) {
      throw damagedSqlite('SQLite file', error);
    }
    const rows = importRows('kindle');
    let words = 0;
    try {
      const statement = db.prepare(`SELECT id, word, stem, lang FROM WORDS ORDER BY timestamp, id`);
      for (const word of statement.iterate() as Iterable<{ id: unknown; word: unknown; stem: unknown; lang: unknown }>) {
        const line = ++words;
        if (typeof word.lang === 'string' && word.lang !== '' && !/^en(?:$|[-_])/i.test(word.lang)) {
          rows.skipped.otherLanguage++;
          continue;
        }
        const text = typeof word.stem === 'string' && word.stem ? word.stem : typeof word.word === 'string' ? word.word : '';
        const usage = typeof word.id === 'string' ? earliest.get(word.id)?.usage : undefined;
        if (text) rows.add({ line, text, ...(usage ? { context: usage } : {}) });
      }
    } catch (error) {
      throw damagedSqlite('SQLite file', error);
    }
    if (words === 0) throw new ImportFileError('empty_file', 'This vocab.db holds no words.');
    const otherLanguage = rows.skipped.otherLanguage;
    if (otherLanguage > 0) {
      rows.problem({ line: 0, code: 'other_language', message: `${otherLanguage} words in other languages than English were left out` });
    }
    return rows.finish();
  } finally {
    db.close();
  }
}

/** Kindle's own schema, or not_kindle: WORDS and LOOKUPS as plain tables with the columns read, and nothing that runs code on a read. */
function checkSchema(db: DatabaseSync): void {
  let schema: { type: string; name: string; sql: string | null }[];
  try {
    schema = db.prepare(`SELECT type, name, sql FROM sqlite_schema`).all() as typeof schema;
  } catch (error) {
    throw damagedSqlite('SQLite file', error);
  }
  const tables = new Map(schema.filter((s) => s.type === 'table').map((s) => [s.name, s.sql ?? '']));
  if (!tables.has('WORDS') || !tables.has('LOOKUPS')) {
    throw new ImportFileError('not_kindle', 'This SQLite database is not a Kindle vocab.db: it has no WORDS and LOOKUPS tables.');
  }
  const foreign = schema.filter((s) => s.type === 'view' || s.type === 'trigger');
  if (foreign.length > 0) {
    throw new ImportFileError(
      'not_kindle',
      `This SQLite database is not a Kindle vocab.db as the device writes it: it holds ${foreign.map((s) => `a ${s.type}`).join(', ')}, ` +
        `which Kindle's never does.`,
    );
  }
  for (const table of Object.keys(COLUMNS) as KindleTable[]) {
    if (/^\s*create\s+virtual\b/i.test(tables.get(table)!)) {
      throw new ImportFileError('not_kindle', `This SQLite database is not a Kindle vocab.db: its ${table} is a virtual table.`);
    }
    let columns: { name: string; hidden: number }[];
    try {
      columns = db.prepare(`SELECT name, hidden FROM pragma_table_xinfo('${table}')`).all() as typeof columns;
    } catch (error) {
      throw damagedSqlite('SQLite file', error);
    }
    if (columns.some((c) => c.hidden !== 0)) {
      throw new ImportFileError(
        'not_kindle',
        `This SQLite database is not a Kindle vocab.db: its ${table} has generated or hidden columns, which Kindle's never has.`,
      );
    }
    const missing = COLUMNS[table].filter((name) => !columns.some((c) => c.name === name));
    if (missing.length > 0) {
      throw new ImportFileError('not_kindle', `This SQLite database is not a Kindle vocab.db: its ${table} has no ${missing.join(', ')} column.`);
    }
  }
}
