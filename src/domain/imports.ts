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
  /** Anki had buried the card (out of today's reviews): it is due tomorrow at the earliest. */
  buried?: boolean | undefined;
}

export const IMPORT_ROW_PROBLEMS = ['too_long', 'no_letter', 'quote_not_closed', 'short_row', 'other_language', 'suspended'] as const;
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
  /** The first IMPORT_PROBLEMS_KEPT problems; problemsTotal counts them all. */
  problems: ImportProblem[];
  problemsTotal: number;
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

/** A field is kept up to this many UTF-16 units (a longer one is too long for a card or a sentence anyway); its reading goes on. */
export const FIELD_MAX_UNITS = 65_536;

/**
 * RFC 4180 records with `separator`, as Rust's `csv` reader (Anki's) reads them: quoted fields may
 * hold separators, doubled quotes and line breaks; text after a closing quote stays in the field;
 * with `comments`, a `#` at the start of a record (only there) makes it a comment. A quoted field
 * that runs to the end of the file is reported on the line it opened and reading resumes on the
 * next line, as long as what was read again so far is no more than the text itself: past that
 * (a file of unclosed quotes), the rest is reported once and not read, so the reading stays linear.
 * `onRecord` returning false stops the reading. Fields are cut at FIELD_MAX_UNITS.
 */
function eachDelimited(
  text: string,
  separator: string,
  options: { comments?: boolean; onProblem?: (p: ImportProblem) => void },
  onRecord: (record: DelimitedRecord) => boolean | void,
): void {
  const end = text.length;
  let rereadBudget = end;
  let pos = 0;
  let line = 1;
  /** After a line break at `at` (\r, \n or \r\n): where the next line starts. */
  const afterBreak = (at: number) => (text.charCodeAt(at) === 13 && text.charCodeAt(at + 1) === 10 ? at + 2 : at + 1);
  const isBreak = (code: number) => code === 10 || code === 13;
  while (pos < end) {
    const startLine = line;
    const recordStart = pos;
    if (options.comments && text.charCodeAt(pos) === 35 /* # */) {
      while (pos < end && !isBreak(text.charCodeAt(pos))) pos++;
      if (pos < end) {
        pos = afterBreak(pos);
        line++;
      }
      continue;
    }
    const fields: string[] = [];
    let field = '';
    let quoted = false;
    let atFieldStart = true;
    /** Where the record's first line ends (its line break), for a resumption after an unclosed quote. */
    let firstBreak = -1;
    let broken = false;
    const append = (chunk: string) => {
      if (field.length < FIELD_MAX_UNITS) field += chunk.length + field.length > FIELD_MAX_UNITS ? chunk.slice(0, FIELD_MAX_UNITS - field.length) : chunk;
    };
    for (;;) {
      if (pos >= end) {
        if (quoted) broken = true;
        else fields.push(field);
        break;
      }
      const code = text.charCodeAt(pos);
      if (quoted) {
        if (code === 34 /* " */) {
          if (text.charCodeAt(pos + 1) === 34) {
            append('"');
            pos += 2;
          } else {
            quoted = false;
            pos++;
          }
        } else if (isBreak(code)) {
          if (firstBreak < 0) firstBreak = pos;
          append('\n');
          pos = afterBreak(pos);
          line++;
        } else {
          // A run of plain characters at once.
          let next = pos + 1;
          while (next < end) {
            const c = text.charCodeAt(next);
            if (c === 34 || isBreak(c)) break;
            next++;
          }
          append(text.slice(pos, next));
          pos = next;
        }
      } else if (isBreak(code)) {
        fields.push(field);
        pos = afterBreak(pos);
        line++;
        break;
      } else if (code === 34 && atFieldStart) {
        quoted = true;
        atFieldStart = false;
        pos++;
      } else if (text[pos] === separator) {
        fields.push(field);
        field = '';
        atFieldStart = true;
        pos++;
      } else {
        let next = pos + 1;
        while (next < end) {
          const c = text.charCodeAt(next);
          if (isBreak(c) || text[next] === separator) break;
          next++;
        }
        append(text.slice(pos, next));
        atFieldStart = false;
        pos = next;
      }
    }
    if (broken) {
      rereadBudget -= end - recordStart;
      if (firstBreak < 0 || rereadBudget < 0) {
        const rest = firstBreak < 0 ? '' : '; the rest of the file was not read';
        options.onProblem?.({ line: startLine, code: 'quote_not_closed', message: `line ${startLine}: a quoted field opens here and is not closed${rest}` });
        return;
      }
      options.onProblem?.({ line: startLine, code: 'quote_not_closed', message: `line ${startLine}: a quoted field opens here and is not closed` });
      pos = afterBreak(firstBreak); // read on from the next line
      line = startLine + 1;
      continue;
    }
    if (fields.length === 1 && fields[0] === '') continue; // a blank line
    if (onRecord({ line: startLine, fields }) === false) return;
  }
}

/** Every record of `text` (eachDelimited), as a list. */
export function readDelimited(
  text: string,
  separator: string,
  options: { comments?: boolean; onProblem?: (p: ImportProblem) => void } = {},
): DelimitedRecord[] {
  const records: DelimitedRecord[] = [];
  eachDelimited(text, separator, options, (record) => {
    records.push(record);
  });
  return records;
}

// ---------------------------------------------------------------------------------------------
// Lines, without splitting the whole text

/** Each line of `text` (\r\n, \n or \r ending it) with its 1-based number, cut at FIELD_MAX_UNITS, from `from` on; `onLine` returning false stops. */
function eachLine(text: string, onLine: (line: string, no: number) => boolean | void, from = 0): void {
  const breaks = /\r\n|\n|\r/g;
  breaks.lastIndex = from;
  let start = from;
  let no = 1;
  for (;;) {
    const found = breaks.exec(text);
    const end = found ? found.index : text.length;
    if (!found && start >= text.length) return;
    if (onLine(text.slice(start, Math.min(end, start + FIELD_MAX_UNITS)), no) === false) return;
    if (!found) return;
    start = breaks.lastIndex;
    no++;
  }
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
  /** Where the body starts in the text. */
  bodyStart: number;
}

/** Anki's `#key:value` header lines (rslib import_export/text/csv/metadata.rs), read from the start of the text only. */
function ankiHeaders(text: string): AnkiHeaders {
  const headers: AnkiHeaders = { separator: null, html: false, columns: null, metaColumns: new Set(), headerLines: 0, bodyStart: 0 };
  const breaks = /\r\n|\n|\r/g;
  for (let i = 0; ; i++) {
    const start = breaks.lastIndex;
    const found = breaks.exec(text);
    const end = found ? found.index : text.length;
    const raw = text.slice(start, Math.min(end, start + FIELD_MAX_UNITS)).replace(i === 0 ? /^\uFEFF/ : /^$/, '');
    const next = found ? breaks.lastIndex : text.length;
    if (i === 0 && /^tags:/i.test(raw)) {
      headers.headerLines = 1;
      headers.bodyStart = next;
      if (!found) break;
      continue;
    }
    const match = /^#([^:]+):(.*)$/.exec(raw);
    if (!match) break;
    headers.headerLines = i + 1;
    headers.bodyStart = next;
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
    if (!found) break;
  }
  return headers;
}

/** Anki's guess when a file names no separator: the first of these found, else a space. */
function guessSeparator(text: string, from: number): string {
  const sample = text.slice(from, from + 8192);
  for (const candidate of ['\t', '|', ';', ':', ',']) if (sample.includes(candidate)) return candidate;
  return ' ';
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/**
 * Removes each span from an opening (found by `open`, a global regex) to the first `close` after
 * it, as a lazy pattern would, in one pass: once no `close` follows, nothing after can match, so
 * no opening is ever scanned from twice (a field of 60,000 unclosed `<` is read once).
 */
function removeSpans(text: string, open: RegExp, close: (text: string, from: number) => number, replacement = ''): string {
  let out = '';
  let kept = 0;
  open.lastIndex = 0;
  for (let found = open.exec(text); found; found = open.exec(text)) {
    const end = close(text, found.index + found[0].length);
    if (end < 0) break;
    out += text.slice(kept, found.index) + replacement;
    kept = end;
    open.lastIndex = end;
  }
  return out + text.slice(kept);
}

/** The end of the first `needle` at or after `from` (case aside: the needles are ASCII), or -1. */
const endOf = (needle: string) => {
  const pattern = new RegExp(needle.replace(/[/\\^$.*+?()[\]{}|]/g, '\\$&'), 'gi');
  return (text: string, from: number) => {
    pattern.lastIndex = from;
    const found = pattern.exec(text);
    return found ? found.index + found[0].length : -1;
  };
};
const tagEnd = endOf('>');

/**
 * A field as Anki's `html_to_text_line` makes it text, and a cloze as its answer. Linear in the
 * field: every step is one pass that never scans from the same place twice (no backtracking pattern).
 */
export function htmlToText(html: string): string {
  let text = html.replaceAll('\n', ' ');
  text = removeSpans(text, /<br\s*\/?>/gi, (_, from) => from, ' ');
  text = removeSpans(text, /<\/?div/gi, tagEnd, ' ');
  // [sound:…] up to the first `]`; [[type:…]] without brackets inside (so each try stops at the next `[`).
  text = removeSpans(text, /\[sound:/g, endOf(']'));
  text = removeSpans(text, /\[\[type:[^\][]*\]\]/g, (_, from) => from);
  text = removeSpans(text, /<!--/g, endOf('-->'));
  text = removeSpans(text, /<style/gi, endOf('</style>'));
  text = removeSpans(text, /<script/gi, endOf('</script>'));
  text = removeSpans(text, /</g, tagEnd);
  text = clozeAnswers(text);
  return text
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .trim();
}

/** `{{c1::answer::hint}}` → `answer`, in one pass (an opening with no `}}` after it ends the search). */
function clozeAnswers(text: string): string {
  let out = '';
  let kept = 0;
  const open = /\{\{c\d+::/g;
  for (let found = open.exec(text); found; found = open.exec(text)) {
    const innerStart = found.index + found[0].length;
    const close = text.indexOf('}}', innerStart);
    if (close < 0) break;
    const inner = text.slice(innerStart, close);
    const hint = inner.indexOf('::');
    out += text.slice(kept, found.index) + (hint >= 0 ? inner.slice(0, hint) : inner);
    kept = close + 2;
    open.lastIndex = kept;
  }
  return out + text.slice(kept);
}

function readAnki(text: string, rows: ImportRows): void {
  const headers = ankiHeaders(text);
  const separator = headers.separator ?? guessSeparator(text, headers.bodyStart);
  const ours = headers.columns?.join('\t') === 'guid\tFront\tBack';
  eachDelimited(text.slice(headers.bodyStart), separator, { comments: true, onProblem: (p) => rows.problem(shiftLine(p, headers.headerLines)) }, (record) => {
    const line = record.line + headers.headerLines;
    let value: string | undefined;
    if (ours) {
      // Our own Anki export: the English is the bold start of Back (Front is the translation).
      const back = record.fields[2] ?? '';
      const bold = back.startsWith('<b>') ? back.indexOf('</b>') : -1;
      value = bold >= 0 ? back.slice(3, bold) : back;
    } else {
      const noteFields = record.fields.filter((_, i) => !headers.metaColumns.has(i + 1));
      value = noteFields[0];
    }
    if (value === undefined) {
      rows.problem({ line, code: 'short_row', message: `line ${line}: the note has no field` });
      return;
    }
    rows.add({ line, text: headers.html || ours ? htmlToText(value) : value });
  });
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

/** How the records after the first are read: the column chosen by the options and the first record, which is a header or a row. */
export function tableReader(first: DelimitedRecord, options: ImportOptions, rows: ImportRows): (record: DelimitedRecord) => void {
  const head = first.fields.map((f) => f.trim());
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
  const read = (record: DelimitedRecord) => {
    const value = record.fields[column];
    if (value === undefined) {
      rows.problem({
        line: record.line,
        code: 'short_row',
        message: `line ${record.line}: the row has ${record.fields.length} columns, none at column ${column + 1}`,
      });
      return;
    }
    const context = contexts >= 0 ? cell(record.fields[contexts] ?? '').split('\n')[0] : undefined;
    rows.add(context ? { line: record.line, text: cell(value), context } : { line: record.line, text: cell(value) });
  };
  if (!header) read(first);
  return read;
}

// ---------------------------------------------------------------------------------------------
// The whole file

/** The formats read from text; the others (Kindle, KOReader, Anki packages) are binary files read by the API (src/features/library/imports). */
export type TextFormat = Exclude<ImportFormat, 'kindle' | 'apkg' | 'koreader'>;

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

/**
 * Reads plain lines or Anki's notes text into rows, in one pass that stops as soon as the file
 * holds more expressions than an import takes; see importRows for what is kept. CSV and TSV are
 * read as they stream by csv-parse (src/features/library/imports/csv.ts), with the same row rules.
 */
export function parseImportText(text: string, format: 'lines' | 'anki'): ParsedImport {
  const rows = importRows(format);
  if (format === 'lines') {
    eachLine(text, (line, no) => {
      rows.add({ line: no, text: no === 1 ? line.replace(/^\uFEFF/, '') : line });
    });
  } else readAnki(text, rows);
  return rows.finish();
}

/** The problems an import keeps (the first ones); the others are counted. */
export const IMPORT_PROBLEMS_KEPT = 100;
/** A text longer than this is too long for a sentence, and is reported without being cleaned. */
const RAW_TEXT_MAX = SENTENCE_MAX_CHARS * 4;
/** A row's source (a book's title) is cut to this many characters. */
const SOURCE_MAX_CHARS = 200;

/**
 * The rows of an import as a reader finds them, one at a time: each cleaned as a capture is
 * (cleanCaptureText), one per expression (the first line wins; the others are counted as
 * duplicates). A line too long for a card is kept aside to be saved as a sentence; a line without
 * a letter is reported. The reading stops (too_many_expressions) at the first expression past
 * IMPORT_EXPRESSIONS_MAX, not after the whole file; the first IMPORT_PROBLEMS_KEPT problems are kept.
 */
export interface ImportRows {
  add(row: ImportRow): void;
  /** What was left out and counted; a reader adds its own (Kindle's words in other languages). */
  readonly skipped: ImportSkipped;
  problem(problem: ImportProblem): void;
  finish(): ParsedImport;
}

export function importRows(format: ImportFormat, skipped: Partial<ImportSkipped> = {}): ImportRows {
  const result: ParsedImport = {
    format,
    rows: [],
    longLines: [],
    problems: [],
    problemsTotal: 0,
    skipped: { duplicatesInFile: 0, tooLong: 0, invalid: 0, otherLanguage: 0, ...skipped },
  };
  const seen = new Set<string>();
  /** The rows' texts as the file wrote them: the same text again is a duplicate without cleaning it again (a file of one line repeated). */
  const seenVerbatim = new Set<string>();
  const problem = (p: ImportProblem) => {
    result.problemsTotal++;
    if (result.problems.length < IMPORT_PROBLEMS_KEPT) result.problems.push(p);
  };
  // A file's text can hold what PostgreSQL cannot store (NUL, a lone surrogate: a Kindle word, a
  // decoded cell); the request guard never sees a file's text, so it is made storable here.
  const storable = (value: string) => cleanCaptureText(value.replaceAll('\u0000', '').toWellFormed());
  const tooLong = (line: number, length: number) => {
    result.skipped.tooLong++;
    problem({
      line,
      code: 'too_long',
      message: `line ${line}: ${length} characters, longer than a card's ${CAPTURE_TEXT_MAX}; it can be saved as a sentence`,
    });
  };
  return {
    problem,
    skipped: result.skipped,
    add(row) {
      if (seenVerbatim.has(row.text)) {
        result.skipped.duplicatesInFile++;
        return;
      }
      if (row.text.length > RAW_TEXT_MAX) return tooLong(row.line, row.text.length);
      const text = storable(row.text);
      if (text === '') return;
      const length = countCodePoints(text);
      if (length > CAPTURE_TEXT_MAX) {
        tooLong(row.line, length);
        if (length <= SENTENCE_MAX_CHARS && result.longLines.length < IMPORT_EXPRESSIONS_MAX) result.longLines.push({ line: row.line, text });
        return;
      }
      if (!hasLetter(text)) {
        result.skipped.invalid++;
        problem({ line: row.line, code: 'no_letter', message: `line ${row.line}: holds no letter` });
        return;
      }
      const key = normaliseExpression(text);
      if (seen.has(key)) {
        result.skipped.duplicatesInFile++;
        return;
      }
      if (result.rows.length >= IMPORT_EXPRESSIONS_MAX) {
        throw new ImportFileError(
          'too_many_expressions',
          `This file holds more than ${IMPORT_EXPRESSIONS_MAX.toLocaleString('en')} expressions (reading stopped at line ${row.line}); an import takes ` +
            `${IMPORT_EXPRESSIONS_MAX.toLocaleString('en')}. Split the file.`,
          { line: row.line, limit: IMPORT_EXPRESSIONS_MAX },
        );
      }
      seen.add(key);
      seenVerbatim.add(row.text);
      // Cut by code points: a cut by UTF-16 units could split an emoji into a lone surrogate.
      const context = row.context
        ? Array.from(storable(row.context.slice(0, RAW_TEXT_MAX)))
            .slice(0, SENTENCE_MAX_CHARS)
            .join('')
        : undefined;
      const source = row.source
        ? Array.from(storable(row.source.slice(0, RAW_TEXT_MAX)))
            .slice(0, SOURCE_MAX_CHARS)
            .join('')
        : undefined;
      result.rows.push({
        line: row.line,
        text,
        ...(context ? { context } : {}),
        ...(source ? { source } : {}),
        ...(row.history ? { history: row.history } : {}),
      });
    },
    finish() {
      if (result.rows.length === 0 && result.longLines.length === 0) {
        throw new ImportFileError('nothing_to_import', 'Nothing in this file can become a card.', { problems: result.problems.slice(0, 20) });
      }
      return result;
    },
  };
}

/** Rows read elsewhere (a list sent as JSON), through the same rules as a file's (importRows). */
export function finishImportRows(format: ImportFormat, raw: ImportRow[], problems: ImportProblem[], skipped: Partial<ImportSkipped> = {}): ParsedImport {
  const rows = importRows(format, skipped);
  for (const problem of problems) rows.problem(problem);
  for (const row of raw) rows.add(row);
  return rows.finish();
}
