import { finishImportRows, ImportFileError, isSqlite, looksLike, type ImportOptions, type ImportRow, type ParsedImport } from '../../../domain/imports.ts';
import { IMPORT_EXPRESSIONS_MAX } from '../../../domain/limits.ts';
import { openUntrustedSqlite } from './untrusted-sqlite.ts';

/**
 * KOReader's vocabulary builder (`koreader/settings/vocabulary_builder.sqlite3`): one expression
 * per `vocabulary` row (the word as looked up), in the order they were looked up, with the
 * sentence it was met in (the text KOReader kept before and after it, cut to its sentence) as
 * its context. The book's title (`title.name`) is read only when the learner asks for it.
 */
export function parseKoreader(bytes: Uint8Array, options: ImportOptions = {}): ParsedImport {
  if (bytes.length === 0) throw new ImportFileError('empty_file', 'The file is empty.');
  if (bytes.length < 100 || !isSqlite(bytes)) {
    throw new ImportFileError(
      'not_sqlite',
      `This file is ${looksLike(bytes) ?? 'not a SQLite database'}; KOReader's vocabulary_builder.sqlite3 is one (in koreader/settings/).`,
    );
  }
  const db = openUntrustedSqlite(bytes, 'vocabulary_builder.sqlite3', ['vocabulary', 'title']);
  try {
    if (!db.tables.has('vocabulary')) {
      throw new ImportFileError('not_koreader', "This SQLite database is not KOReader's vocabulary builder: it has no vocabulary table.");
    }
    const titles = options.bookTitles && db.tables.has('title');
    const rows: ImportRow[] = [];
    let line = 0;
    for (const r of db.iterate<{ word: unknown; highlight: unknown; prev: unknown; next: unknown; title: unknown }>(
      titles
        ? `SELECT v.word AS word, v.highlight AS highlight, v.prev_context AS prev, v.next_context AS next, t.name AS title
           FROM vocabulary v LEFT JOIN title t ON t.id = v.title_id ORDER BY v.create_time, v.word`
        : `SELECT word, highlight, prev_context AS prev, next_context AS next, NULL AS title FROM vocabulary ORDER BY create_time, word`,
    )) {
      if (++line > IMPORT_EXPRESSIONS_MAX * 2) {
        throw new ImportFileError(
          'too_many_expressions',
          `This vocabulary holds more than ${(IMPORT_EXPRESSIONS_MAX * 2).toLocaleString('en')} words; ` +
            `an import takes ${IMPORT_EXPRESSIONS_MAX.toLocaleString('en')}.`,
          {
            limit: IMPORT_EXPRESSIONS_MAX,
          },
        );
      }
      const word = typeof r.word === 'string' ? r.word : '';
      const met = typeof r.highlight === 'string' && r.highlight.trim() !== '' ? r.highlight : word;
      const context = sentenceAround(typeof r.prev === 'string' ? r.prev : '', met, typeof r.next === 'string' ? r.next : '');
      rows.push({
        line,
        text: word,
        ...(context ? { context } : {}),
        ...(titles && typeof r.title === 'string' && r.title.trim() ? { source: r.title.trim() } : {}),
      });
    }
    if (line === 0) throw new ImportFileError('empty_file', 'This vocabulary builder holds no words.');
    return finishImportRows('koreader', rows, []);
  } finally {
    db.close();
  }
}

/** The sentence a word was met in: KOReader keeps some text on each side, which may start or end mid-way through other sentences. */
export function sentenceAround(before: string, word: string, after: string): string {
  if (before.trim() === '' && after.trim() === '') return '';
  // From just after the last sentence end before the word, to the first one after it.
  const start = before.search(/(?:[.!?…]["”’)\]]*\s+)(?=[^.!?…]*$)/u);
  const head = start >= 0 ? before.slice(start).replace(/^[.!?…"”’)\]]*\s+/u, '') : before;
  const end = /[.!?…]["”’)\]]*(?=\s|$)/u.exec(after);
  const tail = end ? after.slice(0, end.index + end[0].length) : after;
  return `${head}${word}${tail}`.replace(/\s+/g, ' ').trim();
}
