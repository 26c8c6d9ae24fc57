/**
 * Imports: the files people already have, read into expressions (issue 26). Pure and without
 * I/O, so the API, the web app (its preview) and the CLI read a file the same way. Kindle's
 * `vocab.db` is SQLite and is read by the API only (src/features/library/imports/kindle.ts).
 *
 * A problem with one record never fails the file: it is reported with its line and why, and the
 * rest is read. A file that cannot be read at all is an ImportFileError with a code a client can act on.
 */
import { CAPTURE_TEXT_MAX, IMPORT_EXPRESSIONS_MAX, SENTENCE_MAX_CHARS } from './limits.ts';
import { cleanCaptureText, countCodePoints, hasLetter, normaliseExpression } from './normalise.ts';
import { spreadsheetText } from './spreadsheet-cells.ts';

export const IMPORT_FORMATS = ['lines', 'csv', 'tsv', 'anki', 'kindle', 'apkg', 'koreader'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** One expression read from the file: the line (or Kindle word id) it came from, and the sentence it was met in when the file has one. */
export interface ImportRow {
  line: number;
  text: string;
  context?: string | undefined;
  /** Where the learner met it, when the file says and the learner asked to keep it (a KOReader book's title). */
  source?: string | undefined;
  /** An Anki card's reviews, oldest first, when the learner asked for them. */
  history?: ImportHistory | undefined;
}

/** Anki's reviews of one card: each `[revlogId, reviewedAtMs, ease 1–4]`. */
export interface ImportHistory {
  reviews: [id: number, at: number, ease: number][];
}

export const IMPORT_ROW_PROBLEMS = ['too_long', 'no_letter', 'quote_not_closed', 'short_row', 'other_language'] as const;
type ImportRowProblemCode = (typeof IMPORT_ROW_PROBLEMS)[number];

export interface ImportProblem {
  line: number;
  code: ImportRowProblemCode;
  message: string;
}

export interface ImportSkipped {
  duplicatesInFile: number;
  tooLong: number;
  invalid: number;
  otherLanguage: number;
}

export interface ParsedImport {
  format: ImportFormat;
  /** An Anki package's decks and note types, and what was chosen of them (src/features/library/imports/anki-package.ts). */
  anki?: AnkiPackageSummary | undefined;
  rows: ImportRow[];
  /** The lines too long for a card, kept so that they can be saved as sentences (at most SENTENCE_MAX_CHARS each). */
  longLines: ImportRow[];
  problems: ImportProblem[];
  skipped: ImportSkipped;
}

export type ImportFileProblemCode =
  | 'empty_file'
  | 'not_text'
  | 'not_sqlite'
  | 'not_kindle'
  | 'damaged_sqlite'
  | 'missing_column'
  | 'too_many_expressions'
  | 'nothing_to_import'
  // Anki packages and KOReader's vocabulary builder
  | 'not_zip'
  | 'too_many_entries'
  | 'archive_too_large'
  | 'nested_archive'
  | 'damaged_archive'
  | 'not_anki'
  | 'missing_deck'
  | 'missing_field'
  | 'nothing_in_deck'
  | 'not_koreader'
  | 'too_many_reviews';

/** What an Anki package holds, for the learner to choose from, and what was chosen. */
export interface AnkiPackageSummary {
  /** Each deck (nested decks named `Parent::Child`) with the notes whose cards are in it. */
  decks: { name: string; notes: number }[];
  /** Each note type with its fields in order and its notes. */
  noteTypes: { name: string; fields: string[]; notes: number }[];
  /** The decks read (a deck with its subdecks); every deck when none was chosen. */
  chosenDecks: string[];
  /** The field read as the expression; null: each note type's first field. */
  field: string | null;
  /** The field read as the sentence (the card's context), if any. */
  sentenceField: string | null;
  /** Anki's reviews of the cards read (its revlog), counted. */
  reviews: number;
  /** Whether those reviews come with the cards (`history`): their schedules computed from them. */
  history: boolean;
}

/** A file that cannot be imported at all: an empty file, another format than the one named, a missing column. */
export class ImportFileError extends Error {
  readonly code: ImportFileProblemCode;
  readonly details: Record<string, unknown>;
  constructor(code: ImportFileProblemCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.code = code;
    this.details = details;
  }
}

export interface ImportOptions {
  format?: ImportFormat | undefined;
  /** CSV/TSV: a header name, or a 1-based column number. */
  column?: string | undefined;
  /** CSV/TSV: whether the first row names the columns (the default when `column` is a name). */
  header?: boolean | undefined;
  /** Anki packages: the decks to read (each with its subdecks); every deck when left out. */
  decks?: string[] | undefined;
  /** Anki packages: the field holding the expression (each note type's first when left out), and an optional field holding a sentence. */
  field?: string | undefined;
  sentenceField?: string | undefined;
  /** KOReader: keep each word's book title (left out unless asked). */
  bookTitles?: boolean | undefined;
  /** Anki packages: bring each card's reviews, its schedule computed from them (left out unless asked). */
  history?: boolean | undefined;
}

// ---------------------------------------------------------------------------------------------
// Bytes → text

const MAGIC: [number[], string][] = [
  [
    [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66, 0x6f, 0x72, 0x6d, 0x61, 0x74, 0x20, 0x33, 0x00],
    'a SQLite database (a Kindle vocab.db? choose the Kindle format)',
  ],
  [[0x50, 0x4b, 0x03, 0x04], 'a ZIP archive (an Anki package? choose the Anki package format)'],
  [[0x25, 0x50, 0x44, 0x46], 'a PDF document'],
  [[0x89, 0x50, 0x4e, 0x47], 'a PNG image'],
  [[0xff, 0xd8, 0xff], 'a JPEG image'],
  [[0x1f, 0x8b], 'a gzip archive'],
];

const startsWith = (bytes: Uint8Array, magic: number[]) => bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b);

export const isSqlite = (bytes: Uint8Array) => startsWith(bytes, MAGIC[0]![0]);
/** A ZIP archive's first local header (an empty archive starts with its end record instead). */
export const isZip = (bytes: Uint8Array) => startsWith(bytes, MAGIC[1]![0]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06]);

/** What a binary file looks like, for the message that refuses it ("a PDF document"), or null. */
export function looksLike(bytes: Uint8Array): string | null {
  for (const [magic, what] of MAGIC) if (startsWith(bytes, magic)) return what;
  return null;
}

/**
 * The file's text: UTF-8 (with or without a BOM), or UTF-16 with its BOM (Excel's "Unicode Text").
 * Anything else is refused with what it looks like; no guessing of legacy encodings.
 */
export function decodeImportText(bytes: Uint8Array): string {
  if (bytes.length === 0) throw new ImportFileError('empty_file', 'The file is empty.');
  const binary = looksLike(bytes);
  if (binary) throw new ImportFileError('not_text', `This file is ${binary}, not a text file.`);
  let text: string;
  try {
    if (bytes[0] === 0xff && bytes[1] === 0xfe) text = new TextDecoder('utf-16le', { fatal: true }).decode(bytes.subarray(2));
    else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = new TextDecoder('utf-16be', { fatal: true }).decode(bytes.subarray(2));
    else text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new ImportFileError('not_text', 'This file is not UTF-8 text. Save it as "CSV UTF-8" or plain UTF-8 text and try again.');
  }
  if (text.includes('\u0000')) throw new ImportFileError('not_text', 'This file holds binary data (NUL bytes), not text.');
  if (text.trim() === '') throw new ImportFileError('empty_file', 'The file holds no text.');
  return text;
}

// ---------------------------------------------------------------------------------------------
// Delimited text (CSV, TSV, Anki's notes text)

export interface DelimitedRecord {
  /** The 1-based line the record starts on. */
  line: number;
  fields: string[];
}

/**
 * RFC 4180 records with `separator`, as Rust's `csv` reader (Anki's) reads them: quoted fields may
 * hold separators, doubled quotes and line breaks; text after a closing quote stays in the field;
 * with `comments`, a `#` at the start of a record (only there) makes it a comment. A quoted field
 * that runs to the end of the file is reported on the line it opened and reading resumes on the next line.
 */
export function readDelimited(
  text: string,
  separator: string,
  options: { comments?: boolean; onProblem?: (p: ImportProblem) => void } = {},
): DelimitedRecord[] {
  const records: DelimitedRecord[] = [];
  const lines = text.split(/\r\n|\n|\r/);
  let index = 0;
  while (index < lines.length) {
    const startLine = index + 1;
    const first = lines[index]!;
    if (first === '' && index === lines.length - 1) break;
    if (options.comments && first.startsWith('#')) {
      index++;
      continue;
    }
    const fields: string[] = [];
    let field = '';
    let lineNo = index;
    let line = first;
    let pos = 0;
    let quoted = false;
    let atFieldStart = true;
    let broken = false;
    for (;;) {
      if (pos >= line.length) {
        if (quoted) {
          if (lineNo + 1 >= lines.length) {
            broken = true;
            break;
          }
          field += '\n';
          lineNo++;
          line = lines[lineNo]!;
          pos = 0;
          continue;
        }
        fields.push(field);
        break;
      }
      const ch = line[pos]!;
      if (quoted) {
        if (ch === '"') {
          if (line[pos + 1] === '"') {
            field += '"';
            pos += 2;
          } else {
            quoted = false;
            pos++;
          }
        } else {
          field += ch;
          pos++;
        }
      } else if (ch === '"' && atFieldStart) {
        quoted = true;
        atFieldStart = false;
        pos++;
      } else if (line.startsWith(separator, pos)) {
        fields.push(field);
        field = '';
        atFieldStart = true;
        pos += separator.length;
      } else {
        field += ch;
        atFieldStart = false;
        pos++;
      }
    }
    if (broken) {
      options.onProblem?.({ line: startLine, code: 'quote_not_closed', message: `line ${startLine}: a quoted field opens here and is not closed` });
      index = startLine; // read on from the next line
      continue;
    }
    index = lineNo + 1;
    if (fields.length === 1 && fields[0] === '') continue; // a blank line
    records.push({ line: startLine, fields });
  }
  return records;
}

// ---------------------------------------------------------------------------------------------
// Anki's "Notes in Plain Text"

const SEPARATOR_NAMES: Record<string, string> = { tab: '\t', pipe: '|', semicolon: ';', colon: ':', comma: ',', space: ' ' };

interface AnkiHeaders {
  separator: string | null;
  html: boolean;
  columns: string[] | null;
  metaColumns: Set<number>;
  /** Lines the headers took. */
  headerLines: number;
}

/** Anki's `#key:value` header lines (rslib import_export/text/csv/metadata.rs). */
function ankiHeaders(lines: string[]): AnkiHeaders {
  const headers: AnkiHeaders = { separator: null, html: false, columns: null, metaColumns: new Set(), headerLines: 0 };
  for (let i = 0; i < lines.length; i++) {
    const raw = i === 0 ? lines[i]!.replace(/^\uFEFF/, '') : lines[i]!;
    if (i === 0 && /^tags:/i.test(raw)) {
      headers.headerLines = 1;
      continue;
    }
    const match = /^#([^:]+):(.*)$/.exec(raw);
    if (!match) break;
    headers.headerLines = i + 1;
    const key = match[1]!.trim().toLowerCase();
    const value = match[2]!;
    const word = (/^[\p{L}\p{N}]+/u.exec(value.trim()) ?? [''])[0];
    if (key === 'separator') headers.separator = SEPARATOR_NAMES[word.toLowerCase()] ?? (value.length > 0 ? value[0]! : null);
    else if (key === 'html') headers.html = word.toLowerCase() === 'true';
    else if (key === 'columns') headers.columns = readDelimited(value, headers.separator ?? '\t')[0]?.fields ?? [];
    else if (['guid column', 'notetype column', 'deck column', 'tags column'].includes(key)) {
      const n = Number(word);
      if (Number.isInteger(n) && n > 0) headers.metaColumns.add(n);
    }
  }
  return headers;
}

/** Anki's guess when a file names no separator: the first of these found, else a space. */
function guessSeparator(text: string): string {
  const sample = text.slice(0, 8192);
  for (const candidate of ['\t', '|', ';', ':', ',']) if (sample.includes(candidate)) return candidate;
  return ' ';
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** A field as Anki's `html_to_text_line` makes it text, and a cloze as its answer. */
export function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>|<\/?div[^>]*>|\n/gi, ' ')
    .replace(/\[\[type:[^\]]*\]\]|\[sound:[^\]]*\]/g, '')
    .replace(/<!--[\s\S]*?-->|<style[\s\S]*?<\/style>|<script[\s\S]*?<\/script>/gi, '')
    .replace(/<[^>]*>/g, '')
    .replace(/\{\{c\d+::(.*?)(?:::[^}]*)?\}\}/g, '$1')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .trim();
}

function readAnki(text: string, problems: ImportProblem[]): ImportRow[] {
  const lines = text.split(/\r\n|\n|\r/);
  const headers = ankiHeaders(lines);
  const body = lines.slice(headers.headerLines).join('\n');
  const separator = headers.separator ?? guessSeparator(body);
  const records = readDelimited(body, separator, { comments: true, onProblem: (p) => problems.push(shiftLine(p, headers.headerLines)) });
  const ours = headers.columns?.join('\t') === 'guid\tFront\tBack';
  const rows: ImportRow[] = [];
  for (const record of records) {
    const line = record.line + headers.headerLines;
    let value: string | undefined;
    if (ours) {
      // Our own Anki export: the English is the bold start of Back (Front is the translation).
      const back = record.fields[2] ?? '';
      value = /^<b>([\s\S]*?)<\/b>/.exec(back)?.[1] ?? back;
    } else {
      const noteFields = record.fields.filter((_, i) => !headers.metaColumns.has(i + 1));
      value = noteFields[0];
    }
    if (value === undefined) {
      problems.push({ line, code: 'short_row', message: `line ${line}: the note has no field` });
      continue;
    }
    rows.push({ line, text: headers.html || ours ? htmlToText(value) : value });
  }
  return rows;
}

const shiftLine = (problem: ImportProblem, by: number): ImportProblem => {
  const line = problem.line + by;
  return { ...problem, line, message: problem.message.replace(/^line \d+/, `line ${line}`) };
};

// ---------------------------------------------------------------------------------------------
// CSV / TSV with a chosen column, and our own export

/** Our own export's first columns (src/features/library/export-format.ts CARD_COLUMNS). */
const OUR_EXPORT = ['cardId', 'text'];
/** Our export's column of the learner's sentences, oldest first, one a line. */
const OUR_CONTEXTS = 'contexts';

function readTable(text: string, separator: string, options: ImportOptions, problems: ImportProblem[]): ImportRow[] {
  const records = readDelimited(text.replace(/^\uFEFF/, ''), separator, { onProblem: (p) => problems.push(p) });
  if (records.length === 0) throw new ImportFileError('empty_file', 'The file holds no records.');
  const head = records[0]!.fields.map((f) => f.trim());
  const ours = OUR_EXPORT.every((name, i) => head[i] === name);
  let column: number;
  let header: boolean;
  const wanted = options.column?.trim();
  if (wanted && /^\d+$/.test(wanted)) {
    column = Number(wanted) - 1;
    header = options.header ?? ours;
    if (column < 0) throw new ImportFileError('missing_column', 'Columns are numbered from 1.', { columns: head });
  } else if (wanted) {
    column = head.findIndex((name) => name.toLowerCase() === wanted.toLowerCase());
    header = true;
    if (column < 0) {
      throw new ImportFileError('missing_column', `The file has no column "${wanted}". Its first row names: ${head.map((h) => `"${h}"`).join(', ')}.`, {
        columns: head,
      });
    }
  } else if (ours) {
    column = 1;
    header = true;
  } else {
    column = 0;
    header = options.header ?? false;
  }
  // Our export made every cell safe for a spreadsheet (an apostrophe before `-ish`): read back exactly,
  // with the card's oldest sentence as the row's context.
  const cell = ours && header ? spreadsheetText : (value: string) => value;
  const contexts = ours && header && column === 1 ? head.indexOf(OUR_CONTEXTS) : -1;
  const rows: ImportRow[] = [];
  for (const record of header ? records.slice(1) : records) {
    const value = record.fields[column];
    if (value === undefined) {
      problems.push({
        line: record.line,
        code: 'short_row',
        message: `line ${record.line}: the row has ${record.fields.length} columns, none at column ${column + 1}`,
      });
      continue;
    }
    const context = contexts >= 0 ? cell(record.fields[contexts] ?? '').split('\n')[0] : undefined;
    rows.push(context ? { line: record.line, text: cell(value), context } : { line: record.line, text: cell(value) });
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// The whole file

/** The formats read from text; the others (Kindle, KOReader, Anki packages) are binary files read by the API (src/features/library/imports). */
type TextFormat = Exclude<ImportFormat, 'kindle' | 'apkg' | 'koreader'>;

/** The format a text file is in, when none was named: Anki's headers, our export, a tab or comma table, else lines. */
export function detectTextFormat(text: string, fileName?: string): TextFormat {
  const start = text.replace(/^\uFEFF/, '').slice(0, 4096);
  if (/^(#separator:|#html:|#columns:|#notetype|#deck|#guid column:|tags:)/im.test(start.split(/\r?\n/)[0] ?? '')) return 'anki';
  const firstLine = start.split(/\r?\n/)[0] ?? '';
  const name = fileName?.toLowerCase() ?? '';
  if (name.endsWith('.tsv') || firstLine.startsWith('cardId\ttext')) return 'tsv';
  if (name.endsWith('.csv') || firstLine.startsWith('cardId,text')) return 'csv';
  return 'lines';
}

/** Reads a text file (every format but Kindle's) into rows; see finishImportRows for what is kept. */
export function parseImportText(text: string, options: ImportOptions & { fileName?: string | undefined } = {}): ParsedImport {
  const format = options.format ?? detectTextFormat(text, options.fileName);
  const problems: ImportProblem[] = [];
  let rows: ImportRow[];
  switch (format) {
    case 'lines':
      rows = text
        .replace(/^\uFEFF/, '')
        .split(/\r\n|\n|\r/)
        .map((line, i) => ({ line: i + 1, text: line }))
        .filter((row) => row.text.trim() !== '');
      break;
    case 'csv':
    case 'tsv':
      rows = readTable(text, format === 'csv' ? ',' : '\t', options, problems);
      break;
    case 'anki':
      rows = readAnki(text, problems);
      break;
    case 'kindle':
    case 'koreader':
      throw new ImportFileError(
        'not_sqlite',
        `A ${format === 'kindle' ? 'Kindle vocab.db' : 'KOReader vocabulary_builder.sqlite3'} is a SQLite database, not text.`,
      );
    case 'apkg':
      throw new ImportFileError('not_zip', 'An Anki package (.apkg, .colpkg) is a ZIP archive, not text.');
  }
  return finishImportRows(format, rows, problems);
}

/** A row's source (a book's title) is cut to this many characters. */
const SOURCE_MAX_CHARS = 200;

/**
 * The rows kept: cleaned as a capture is (cleanCaptureText), one per expression (the first line
 * wins; the others are counted as duplicates), at most IMPORT_EXPRESSIONS_MAX. A line too long
 * for a card is kept aside to be saved as a sentence; a line without a letter is reported.
 */
export function finishImportRows(format: ImportFormat, raw: ImportRow[], problems: ImportProblem[], skipped: Partial<ImportSkipped> = {}): ParsedImport {
  const result: ParsedImport = {
    format,
    rows: [],
    longLines: [],
    problems,
    skipped: { duplicatesInFile: 0, tooLong: 0, invalid: 0, otherLanguage: 0, ...skipped },
  };
  const seen = new Set<string>();
  // A file's text can hold what PostgreSQL cannot store (NUL, a lone surrogate: a Kindle word, a
  // decoded cell); the request guard never sees a file's text, so it is made storable here.
  const storable = (value: string) => cleanCaptureText(value.replaceAll('\u0000', '').toWellFormed());
  for (const row of raw) {
    const text = storable(row.text);
    if (text === '') continue;
    const length = countCodePoints(text);
    if (length > CAPTURE_TEXT_MAX) {
      result.skipped.tooLong++;
      problems.push({
        line: row.line,
        code: 'too_long',
        message: `line ${row.line}: ${length} characters, longer than a card's ${CAPTURE_TEXT_MAX}; it can be saved as a sentence`,
      });
      if (length <= SENTENCE_MAX_CHARS) result.longLines.push({ line: row.line, text });
      continue;
    }
    if (!hasLetter(text)) {
      result.skipped.invalid++;
      problems.push({ line: row.line, code: 'no_letter', message: `line ${row.line}: holds no letter` });
      continue;
    }
    const key = normaliseExpression(text);
    if (seen.has(key)) {
      result.skipped.duplicatesInFile++;
      continue;
    }
    seen.add(key);
    // Cut by code points: a cut by UTF-16 units could split an emoji into a lone surrogate.
    const context = row.context ? Array.from(storable(row.context)).slice(0, SENTENCE_MAX_CHARS).join('') : undefined;
    const source = row.source ? Array.from(storable(row.source)).slice(0, SOURCE_MAX_CHARS).join('') : undefined;
    result.rows.push({
      line: row.line,
      text,
      ...(context ? { context } : {}),
      ...(source ? { source } : {}),
      ...(row.history ? { history: row.history } : {}),
    });
  }
  if (result.rows.length > IMPORT_EXPRESSIONS_MAX) {
    throw new ImportFileError(
      'too_many_expressions',
      `This file holds ${result.rows.length.toLocaleString('en')} expressions; an import takes ${IMPORT_EXPRESSIONS_MAX.toLocaleString('en')}. Split the file.`,
      { expressions: result.rows.length, limit: IMPORT_EXPRESSIONS_MAX },
    );
  }
  if (result.rows.length === 0 && result.longLines.length === 0) {
    throw new ImportFileError('nothing_to_import', 'Nothing in this file can become a card.', { problems: problems.slice(0, 20) });
  }
  return result;
}
