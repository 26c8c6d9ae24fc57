import {
  decodeImportText,
  detectTextFormat,
  isSqlite,
  isZip,
  parseImportText,
  type ImportFormat,
  type ImportOptions,
  type ParsedImport,
  type TextFormat,
} from '../../../domain/imports.ts';
import { parseAnkiPackage } from './anki-package.ts';
import { readTable } from './csv.ts';
import { readKindle } from './kindle.ts';
import { parseKoreader } from './koreader.ts';

/** What a reader is told beside the bytes: the format named (if any), the column, the file's name. Plain data: it crosses to a worker thread. */
export type ReadOptions = ImportOptions & { fileName?: string | undefined };

/**
 * A reader: a file's bytes as an import's rows. It runs in a reader thread (reading.ts), never on
 * the API's, under that thread's memory limit and deadline; it must still be linear in the file
 * and enforce the row cap as it reads (importRows in src/domain/imports.ts does), and refuse what
 * it cannot read with an ImportFileError. A new format is one reader here and, when it can be
 * recognised by its bytes or name, one line in DETECTED.
 */
type ImportReader = (bytes: Uint8Array, options: ReadOptions) => ParsedImport | Promise<ParsedImport>;

/** Every text format: decoded (UTF-8 or UTF-16 with its BOM), then read in one pass: CSV and TSV by csv-parse as they stream, the others by hand. */
const readText: ImportReader = (bytes, options) => {
  const text = decodeImportText(bytes);
  const format = (options.format as TextFormat | undefined) ?? detectTextFormat(text, options.fileName);
  return format === 'csv' || format === 'tsv' ? readTable(text, format, options) : parseImportText(text, format);
};

const READERS: Record<ImportFormat, ImportReader> = {
  lines: readText,
  csv: readText,
  tsv: readText,
  anki: readText,
  kindle: readKindle,
  apkg: parseAnkiPackage,
  koreader: parseKoreader,
};

const isSqliteFile = (bytes: Uint8Array, fileName: string) => isSqlite(bytes) || /\.(db|sqlite3?)$/i.test(fileName);

/** Formats recognised when none is named, in order, by their bytes or file name (a text file named vocab.db is refused as not SQLite, not read as lines). */
const DETECTED: { format: ImportFormat; is: (bytes: Uint8Array, fileName: string) => boolean }[] = [
  { format: 'apkg', is: (bytes, fileName) => isZip(bytes) || /\.(apkg|colpkg)$/i.test(fileName) },
  { format: 'koreader', is: (bytes, fileName) => isSqliteFile(bytes, fileName) && sqliteFormat(bytes, fileName) === 'koreader' },
  { format: 'kindle', is: isSqliteFile },
];

/** Reads a file with the reader of the format named, else of the one recognised, else as text (whose own format is detected from its first lines). */
export function readImportBytes(bytes: Uint8Array, options: ReadOptions): ParsedImport | Promise<ParsedImport> {
  const format = options.format ?? DETECTED.find((d) => d.is(bytes, options.fileName ?? ''))?.format;
  return (format ? READERS[format] : readText)(bytes, options);
}

/** A SQLite file named nothing: KOReader's by its name or its `vocabulary` table, else Kindle's. */
function sqliteFormat(bytes: Uint8Array, fileName: string): 'kindle' | 'koreader' {
  if (/vocabulary_builder/i.test(fileName)) return 'koreader';
  // The first page holds the schema: KOReader's names its vocabulary table there, Kindle's its WORDS.
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 8192)).toString('latin1');
  return /CREATE TABLE (?:IF NOT EXISTS )?"?vocabulary"?/i.test(head) && !/CREATE TABLE "?WORDS"?/.test(head) ? 'koreader' : 'kindle';
}
