import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { finishImportRows, ImportFileError, isSqlite, looksLike, type ImportProblem, type ImportRow, type ParsedImport } from '../../../domain/imports.ts';

interface WordRow {
  id: string;
  word: string | null;
  stem: string | null;
  lang: string | null;
  usage: string | null;
}

/**
 * Kindle's Vocabulary Builder database (`vocab.db`): one expression per WORDS row (its stem, else
 * the word as looked up), with the sentence it was first met in (the earliest LOOKUPS.usage) as its
 * context. Words in another language than English are left out and counted. The file is opened
 * read-only and immutable by path (a WAL-mode file reads too, and no -wal/-shm file is made),
 * with an authorizer that lets the query read nothing but the two tables it needs.
 */
export async function parseKindle(bytes: Uint8Array): Promise<ParsedImport> {
  if (bytes.length === 0) throw new ImportFileError('empty_file', 'The file is empty.');
  if (bytes.length < 100 || !isSqlite(bytes)) {
    const what = looksLike(bytes);
    throw new ImportFileError(
      'not_sqlite',
      `This file is ${what ?? 'not a SQLite database'}; a Kindle vocab.db is one (on the Kindle: system/vocabulary/vocab.db).`,
    );
  }
  const dir = await mkdtemp(join(tmpdir(), 'lcs-import-'));
  const path = join(dir, 'vocab.db');
  try {
    await writeFile(path, bytes, { mode: 0o600 });
    return readVocabDb(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const ALLOWED_TABLES = new Set(['WORDS', 'LOOKUPS', 'sqlite_master', 'sqlite_schema']);

function readVocabDb(path: string): ParsedImport {
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(`file:${path}?immutable=1`, { readOnly: true, open: true });
  } catch (error) {
    throw damaged(error);
  }
  try {
    let tables: string[];
    try {
      tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]).map((t) => t.name);
    } catch (error) {
      throw damaged(error);
    }
    if (!tables.includes('WORDS') || !tables.includes('LOOKUPS')) {
      throw new ImportFileError('not_kindle', 'This SQLite database is not a Kindle vocab.db: it has no WORDS and LOOKUPS tables.');
    }
    // Only reads of the two tables (and the schema) from here on.
    db.setAuthorizer((action, table) => {
      const SQLITE_READ = 20;
      const SQLITE_SELECT = 21;
      const SQLITE_FUNCTION = 31;
      if (action === SQLITE_SELECT || action === SQLITE_FUNCTION) return 0;
      if (action === SQLITE_READ && table !== null && ALLOWED_TABLES.has(table)) return 0;
      return 1; // SQLITE_DENY
    });
    let words: WordRow[];
    try {
      words = db
        .prepare(
          `SELECT w.id AS id, w.word AS word, w.stem AS stem, w.lang AS lang,
             (SELECT l.usage FROM LOOKUPS l WHERE l.word_key = w.id ORDER BY l.timestamp LIMIT 1) AS usage
           FROM WORDS w ORDER BY w.timestamp, w.id`,
        )
        .all() as unknown as WordRow[];
    } catch (error) {
      throw damaged(error);
    }
    const rows: ImportRow[] = [];
    const problems: ImportProblem[] = [];
    let otherLanguage = 0;
    words.forEach((word, index) => {
      const line = index + 1;
      if (word.lang && !/^en(?:$|[-_])/i.test(word.lang)) {
        otherLanguage++;
        return;
      }
      const text = String(word.stem || word.word || '');
      if (text) rows.push({ line, text, ...(word.usage ? { context: String(word.usage) } : {}) });
    });
    if (otherLanguage > 0) {
      problems.push({ line: 0, code: 'other_language', message: `${otherLanguage} words in other languages than English were left out` });
    }
    if (words.length === 0) throw new ImportFileError('empty_file', 'This vocab.db holds no words.');
    return finishImportRows('kindle', rows, problems, { otherLanguage });
  } finally {
    db.close();
  }
}

function damaged(error: unknown): ImportFileError {
  if (error instanceof ImportFileError) return error;
  return new ImportFileError('damaged_sqlite', `This SQLite file is damaged and cannot be read (${(error as Error).message}).`);
}
