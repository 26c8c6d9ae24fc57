/**
 * CSV and TSV (RFC 4180) read as they stream through csv-parse, the limits holding while the file
 * is read: each record is handed to the row rules (tableReader, importRows) as soon as it is
 * parsed, so the row cap stops the reading at the first expression past it; a record is read up
 * to RECORD_MAX_BYTES (csv-parse's own max_record_size), never into memory whole.
 *
 * A record csv-parse cannot finish (a quote never closed, a record past the size) is reported on
 * the line it starts, and the reading goes on from the line after it, as Anki's reader and
 * spreadsheets do: one bad quote does not lose the rows after it. Each such resumption re-reads
 * what the failed record read; once the re-read text would pass the file's own length (a file
 * of unclosed quotes), the rest is reported once and not read, so a file costs at most twice its reading.
 */
import { CsvError, parse } from 'csv-parse';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ImportFileError, importRows, tableReader, type DelimitedRecord, type ImportOptions, type ParsedImport } from '../../../domain/imports.ts';

/** A record (a row with the line breaks its quoted fields hold) is read up to this many bytes; a longer one is reported and skipped. */
const RECORD_MAX_BYTES = 1 << 20;
/** How much of the file csv-parse is given at a time. */
const CHUNK_BYTES = 64 * 1024;

const LF = 0x0a;
const CR = 0x0d;

/** Reads a CSV (comma) or TSV (tab) file's text into an import's rows; the column is chosen by the options and the first record (tableReader). */
export async function readTable(text: string, format: 'csv' | 'tsv', options: ImportOptions): Promise<ParsedImport> {
  const bytes = Buffer.from(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  const rows = importRows(format);
  const lines = lineCounter(bytes);
  let read: ((record: DelimitedRecord) => void) | null = null;
  let problems = 0;
  let rereadBudget = bytes.length;
  let from = 0;
  while (from < bytes.length) {
    /** Where the record being parsed starts: where the one before it ended. */
    let recordStart = from;
    const failed = await parseFrom(bytes, from, format === 'csv' ? ',' : '\t', (fields, end) => {
      const line = lines.at(recordStart);
      recordStart = end;
      if (fields.length === 1 && fields[0] === '') return; // a blank line
      const record = { line, fields: fields.map(oneLineBreak) };
      if (read) read(record);
      else read = tableReader(record, options, rows);
    });
    if (!failed) break;
    problems++;
    const startLine = lines.at(recordStart);
    const nextLine = lineAfter(bytes, recordStart);
    rereadBudget -= Math.min(bytes.length, recordStart + RECORD_MAX_BYTES) - recordStart;
    const rest = nextLine < bytes.length && rereadBudget < 0 ? '; the rest of the file was not read' : '';
    rows.problem(recordProblem(failed, bytes, recordStart, startLine, rest));
    if (rest || nextLine >= bytes.length) break;
    from = nextLine;
    lines.restart(nextLine, startLine + 1);
  }
  // No record at all: empty, unless records could not be read (then nothing_to_import names why).
  if (!read && problems === 0) throw new ImportFileError('empty_file', 'The file holds no records.');
  return rows.finish();
}

/**
 * Parses `bytes` from `from` on, handing each record and the offset where it ends to `onRecord`
 * as csv-parse reads it (nothing is buffered: on_record keeps no record). Resolves null at the
 * end of the file, or the CsvError of a record it could not finish; an error of `onRecord` (the
 * row cap's) rejects.
 */
async function parseFrom(bytes: Buffer, from: number, delimiter: string, onRecord: (fields: string[], end: number) => void): Promise<CsvError | null> {
  const parser = parse({
    delimiter,
    record_delimiter: ['\r\n', '\n', '\r'],
    // A quote inside an unquoted field, or text after a closing one, stays in the field (Anki's and spreadsheets' reading).
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: false,
    max_record_size: RECORD_MAX_BYTES,
    on_record: (record: string[], info) => {
      onRecord(record, from + info.bytes);
      return null;
    },
  });
  try {
    await pipeline(Readable.from(chunks(bytes, from)), parser, async (records: AsyncIterable<unknown>) => {
      for await (const _ of records); // on_record keeps none: this only lets the parser end
    });
    return null;
  } catch (error) {
    if (error instanceof CsvError) return error;
    throw error;
  }
}

function* chunks(bytes: Buffer, from: number): Generator<Buffer> {
  for (let at = from; at < bytes.length; at += CHUNK_BYTES) yield bytes.subarray(at, Math.min(bytes.length, at + CHUNK_BYTES));
}

/**
 * A record csv-parse could not finish, named on its line. Only a quoted field holds a line break,
 * so a record past the size with one in it is a quote left open.
 */
function recordProblem(error: CsvError, bytes: Buffer, start: number, line: number, rest: string) {
  const read = bytes.subarray(start, Math.min(bytes.length, start + RECORD_MAX_BYTES));
  if (error.code === 'CSV_QUOTE_NOT_CLOSED' || read.includes(LF) || read.includes(CR)) {
    return { line, code: 'quote_not_closed' as const, message: `line ${line}: a quoted field opens here and is not closed${rest}` };
  }
  if (error.code === 'CSV_MAX_RECORD_SIZE') {
    return { line, code: 'too_long' as const, message: `line ${line}: the row is longer than ${RECORD_MAX_BYTES / (1 << 20)} MB; it was skipped${rest}` };
  }
  return { line, code: 'short_row' as const, message: `line ${line}: the row cannot be read (${error.code})${rest}` };
}

/** Where the line after the one holding `at` starts (the file's end when it is the last). */
function lineAfter(bytes: Buffer, at: number): number {
  const lf = bytes.indexOf(LF, at);
  const cr = bytes.indexOf(CR, at);
  const end = cr >= 0 && (lf < 0 || cr < lf) ? cr : lf;
  if (end < 0) return bytes.length;
  return bytes[end] === CR && bytes[end + 1] === LF ? end + 2 : end + 1;
}

/** The line number of an offset, counting \r\n, \n and \r, for offsets that only grow (each byte is counted once), restartable at a known line. */
function lineCounter(bytes: Buffer) {
  let offset = 0;
  let line = 1;
  return {
    at(target: number): number {
      for (; offset < target; offset++) {
        const byte = bytes[offset];
        if (byte === LF || (byte === CR && bytes[offset + 1] !== LF)) line++;
      }
      return line;
    },
    restart(at: number, lineAt: number) {
      offset = at;
      line = lineAt;
    },
  };
}

/** A quoted field's \r\n and \r read as \n, as the hand-written reader did (our export's contexts are one a line). */
const oneLineBreak = (field: string) => (field.includes('\r') ? field.replace(/\r\n?/g, '\n') : field);
