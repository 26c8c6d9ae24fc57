/**
 * CSV and TSV as the reader thread reads them (readers.ts → csv.ts: csv-parse, streamed, with the
 * row rules of src/domain/imports.ts), from the file's bytes.
 */
import { describe, expect, it } from 'vitest';
import { detectTextFormat, ImportFileError, type ImportOptions } from '../../../../../src/domain/imports.ts';
import { CARD_COLUMNS, cardFields, delimitedRow, type ExportCard } from '../../../../../src/features/library/export-format.ts';
import { IMPORT_EXPRESSIONS_MAX } from '../../../../../src/domain/limits.ts';
import { readImportBytes } from '../../../../../src/features/library/imports/readers.ts';

const noSkips = { duplicatesInFile: 0, tooLong: 0, invalid: 0, otherLanguage: 0 };
const parse = async (text: string, options: ImportOptions & { fileName?: string } = {}) => readImportBytes(new TextEncoder().encode(text), options);

/** The ImportFileError a read rejects with (failing the test when it reads or rejects with something else). */
async function fileError(call: () => Promise<unknown>): Promise<ImportFileError> {
  const error = await call().then(
    () => new Error('expected an ImportFileError, the file was read'),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ImportFileError);
  return error as ImportFileError;
}

describe('our own CSV and TSV export, read back', () => {
  const card = (over: Partial<ExportCard>): ExportCard => ({
    cardId: '00000000-0000-4000-8000-000000000000',
    text: 'placeholder',
    correctedText: null,
    translation: 'traduction, "citée"',
    guidance: 'Line one\nline two',
    examples: ['An example, with a comma.', '=SUM(A1)'],
    focuses: [{ kind: 'grammar', note: 'a note' }],
    createdAt: new Date('2026-01-02T03:04:05.006Z'),
    due: new Date('2026-02-01T00:00:00.000Z'),
    reps: 2,
    lapses: 0,
    stability: 3.5,
    contexts: [],
    metCount: 1,
    lastMetAt: null,
    ...over,
  });
  const cards = [
    card({
      cardId: '11111111-1111-4111-8111-111111111111',
      text: 'break a leg',
      contexts: [
        { text: 'Break a leg tonight, she said.', start: 0, end: 11 },
        { text: 'A later sentence, "quoted".', start: 0, end: 1 },
      ],
    }),
    card({ cardId: '22222222-2222-4222-8222-222222222222', text: '-ish', contexts: [{ text: '-ish, roughly: greenish', start: 0, end: 4 }] }),
    card({ cardId: '33333333-3333-4333-8333-333333333333', text: '@home', contexts: [] }),
    card({ cardId: '44444444-4444-4444-8444-444444444444', text: 'on the fence', contexts: [{ text: 'He sat on the fence,\tundecided.', start: 7, end: 19 }] }),
  ];
  const file = (separator: string) => delimitedRow(CARD_COLUMNS, separator) + cards.map((c) => delimitedRow(cardFields(c), separator)).join('');
  const expected = [
    { text: 'break a leg', context: 'Break a leg tonight, she said.' },
    { text: '-ish', context: '-ish, roughly: greenish' },
    { text: '@home' },
    { text: 'on the fence', context: 'He sat on the fence, undecided.' },
  ];

  it('is detected by its header and gives back each card’s expression (its spreadsheet apostrophe dropped) and oldest sentence', async () => {
    const csv = file(',');
    expect(detectTextFormat(csv)).toBe('csv');
    const parsed = await parse(csv);
    expect(parsed.format).toBe('csv');
    expect(parsed.rows.map(({ text, context }) => (context ? { text, context } : { text }))).toEqual(expected);
    expect(parsed.problems).toEqual([]);
    expect(parsed.skipped).toEqual(noSkips);
  });

  it('does the same for the TSV export', async () => {
    const tsv = file('\t');
    expect(detectTextFormat(tsv)).toBe('tsv');
    expect((await parse(tsv)).rows.map(({ text, context }) => (context ? { text, context } : { text }))).toEqual(expected);
  });

  it('names each row by the line it starts on, fields with line breaks spanning several', async () => {
    // The header is line 1; each card's guidance and examples span two lines, the first card's two sentences two more.
    expect((await parse(file(','))).rows.map((r) => r.line)).toEqual([2, 6, 9, 12]);
  });

  it('takes another column of it by name, unescaped, without contexts', async () => {
    expect((await parse(file(','), { column: 'examples' })).rows[0]).toEqual({ line: 2, text: 'An example, with a comma. =SUM(A1)' });
  });
});

describe('CSV and TSV with a chosen column', () => {
  const csv = 'word,meaning\r\n"break a leg",good luck\r\n"run out of steam, slowly","tired, ""very"""\r\n"on the\nfence",undecided\r\n';

  it('takes the column named by its header (case aside), skipping the header row', async () => {
    const parsed = await parse(csv, { format: 'csv', column: 'Word' });
    expect(parsed).toEqual({
      format: 'csv',
      rows: [
        { line: 2, text: 'break a leg' },
        { line: 3, text: 'run out of steam, slowly' },
        { line: 4, text: 'on the fence' }, // the line break inside the field becomes a space
      ],
      longLines: [],
      problems: [],
      problemsTotal: 0,
      skipped: noSkips,
    });
    expect((await parse(csv, { format: 'csv', column: 'meaning' })).rows.map((r) => r.text)).toEqual(['good luck', 'tired, "very"', 'undecided']);
  });

  it('takes a column by its 1-based number, the first row a record unless header is set', async () => {
    expect((await parse('alpha,beta\ngamma,delta\n', { format: 'csv', column: '2' })).rows).toEqual([
      { line: 1, text: 'beta' },
      { line: 2, text: 'delta' },
    ]);
    expect((await parse('alpha,beta\ngamma,delta\n', { format: 'csv', column: '2', header: true })).rows).toEqual([{ line: 2, text: 'delta' }]);
    expect((await parse('alpha,beta\ngamma,delta\n', { format: 'csv' })).rows.map((r) => r.text)).toEqual(['alpha', 'gamma']);
  });

  it('reads TSV the same way, a comma being part of a field', async () => {
    const parsed = await parse('expression\tnote\nhello, world\tgreeting\n"tab\tinside"\tx\n', { format: 'tsv', column: 'expression' });
    expect(parsed.rows).toEqual([
      { line: 2, text: 'hello, world' },
      { line: 3, text: 'tab inside' }, // the tab is whitespace to a card
    ]);
  });

  it('reports a row without the chosen column, naming its line and why, and keeps the rows around it', async () => {
    const parsed = await parse('word,meaning\nfirst,one\nlonely\nthird,three\n', { format: 'csv', column: 'meaning' });
    expect(parsed.rows).toEqual([
      { line: 2, text: 'one' },
      { line: 4, text: 'three' },
    ]);
    expect(parsed.problems).toEqual([{ line: 3, code: 'short_row', message: 'line 3: the row has 1 columns, none at column 2' }]);
  });

  it('reports an unclosed quote on its line and keeps every row before it', async () => {
    const parsed = await parse('word\nalpha\nbeta\n"gamma\ndelta\n', { format: 'csv', column: 'word' });
    expect(parsed.rows).toEqual([
      { line: 2, text: 'alpha' },
      { line: 3, text: 'beta' },
      { line: 5, text: 'delta' },
    ]);
    expect(parsed.problems).toEqual([{ line: 4, code: 'quote_not_closed', message: 'line 4: a quoted field opens here and is not closed' }]);
  });

  it('refuses a column the file does not have, naming the columns it has', async () => {
    const error = await fileError(() => parse(csv, { format: 'csv', column: 'expression' }));
    expect(error.code).toBe('missing_column');
    expect(error.message).toBe('The file has no column "expression". Its first row names: "word", "meaning".');
    expect(error.details).toEqual({ columns: ['word', 'meaning'] });
    expect(await fileError(() => parse(csv, { format: 'csv', column: '0' }))).toMatchObject({
      code: 'missing_column',
      message: 'Columns are numbered from 1.',
    });
  });

  it('refuses a table with no records', async () => {
    expect(await fileError(() => parse('\n\n', { format: 'csv' }))).toMatchObject({ code: 'empty_file' });
  });
});

describe('a table named by nothing but its file', () => {
  it('detects a table by its file name when no format is named', async () => {
    expect((await parse('word,meaning\nhello,bonjour\n', { fileName: 'w.csv', column: 'meaning' })).rows).toEqual([{ line: 2, text: 'bonjour' }]);
  });

  it('refuses text named as Kindle’s vocab.db', async () => {
    expect(await fileError(() => parse('x', { format: 'kindle' }))).toMatchObject({ code: 'not_sqlite' });
  });
});

describe('csv-parse, streamed, with the limits while it reads', () => {
  it('reads past unclosed quotes at most once over: a file of them is reported, not rescanned from every line', async () => {
    const error = await fileError(() => parse('a","\n'.repeat(16_000), { format: 'csv' }));
    expect(error.code).toBe('nothing_to_import');
    expect(error.details).toEqual({
      problems: [
        { line: 1, code: 'quote_not_closed', message: 'line 1: a quoted field opens here and is not closed' },
        { line: 2, code: 'quote_not_closed', message: 'line 2: a quoted field opens here and is not closed; the rest of the file was not read' },
      ],
    });
  });

  it('skips a record past 1 MB, naming its line, and reads the rows after it', async () => {
    const parsed = await parse(`first\n${'x'.repeat(1_100_000)},y\nafter\n`, { format: 'csv' });
    expect(parsed.rows).toEqual([
      { line: 1, text: 'first' },
      { line: 3, text: 'after' },
    ]);
    expect(parsed.problems).toEqual([{ line: 2, code: 'too_long', message: 'line 2: the row is longer than 1 MB; it was skipped' }]);
  });

  it('ends a record at \\r\\n, \\n or \\r alike and numbers lines after a multi-line field', async () => {
    const parsed = await parse('one\r\ntwo\rthree\n"four\r\nstill four"\nfive\n', { format: 'csv' });
    expect(parsed.rows).toEqual([
      { line: 1, text: 'one' },
      { line: 2, text: 'two' },
      { line: 3, text: 'three' },
      { line: 4, text: 'four still four' },
      { line: 6, text: 'five' },
    ]);
  });

  it('keeps a quote inside an unquoted field as it is', async () => {
    expect((await parse('say "cheese",x\n', { format: 'csv' })).rows).toEqual([{ line: 1, text: 'say "cheese"' }]);
  });

  it('stops at the first expression past the import limit, naming its line', async () => {
    const rows = Array.from({ length: IMPORT_EXPRESSIONS_MAX + 5 }, (_, i) => `expression ${i},x`).join('\n');
    const error = await fileError(() => parse(`word,meaning\n${rows}\n`, { format: 'csv', column: 'word' }));
    expect(error).toMatchObject({ code: 'too_many_expressions', details: { line: IMPORT_EXPRESSIONS_MAX + 2, limit: IMPORT_EXPRESSIONS_MAX } });
  });
});
