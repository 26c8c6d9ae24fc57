import { describe, expect, it } from 'vitest';
import {
  decodeImportText,
  detectTextFormat,
  FIELD_MAX_UNITS,
  finishImportRows,
  htmlToText,
  ImportFileError,
  parseImportText,
  readDelimited,
  type ImportProblem,
} from '../../../src/domain/imports.ts';
import { CAPTURE_TEXT_MAX, IMPORT_EXPRESSIONS_MAX, SENTENCE_MAX_CHARS } from '../../../src/domain/limits.ts';
import { ankiHeader, ankiRow, type ExportCard } from '../../../src/features/library/export-format.ts';

const utf8 = (text: string) => new TextEncoder().encode(text);
const noSkips = { duplicatesInFile: 0, tooLong: 0, invalid: 0, otherLanguage: 0 };

/** The ImportFileError a call throws (failing the test when it throws nothing or something else). */
function fileError(call: () => unknown): ImportFileError {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(ImportFileError);
    return error as ImportFileError;
  }
  throw new Error('expected an ImportFileError, nothing was thrown');
}

const parse = (text: string, options: { format?: 'lines' | 'anki'; fileName?: string } = {}) =>
  parseImportText(text, options.format ?? (detectTextFormat(text, options.fileName) as 'lines' | 'anki'));

describe('decodeImportText', () => {
  it('reads UTF-8 with and without a BOM, dropping the BOM', () => {
    expect(decodeImportText(utf8('break a leg\n'))).toBe('break a leg\n');
    expect(decodeImportText(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('café au lait')]))).toBe('café au lait');
  });

  it('reads UTF-16 little- and big-endian by their BOM (Excel’s "Unicode Text")', () => {
    const text = 'word\tmeaning\r\nnaïve\tingénu';
    const le = Buffer.from(text, 'utf16le');
    const be = Buffer.from(le).swap16();
    expect(decodeImportText(new Uint8Array([0xff, 0xfe, ...le]))).toBe(text);
    expect(decodeImportText(new Uint8Array([0xfe, 0xff, ...be]))).toBe(text);
  });

  it('refuses an empty or blank file as empty_file', () => {
    expect(fileError(() => decodeImportText(new Uint8Array()))).toMatchObject({ code: 'empty_file', message: 'The file is empty.' });
    expect(fileError(() => decodeImportText(utf8(' \r\n\t\n')))).toMatchObject({ code: 'empty_file', message: 'The file holds no text.' });
  });

  it('refuses a binary file naming what it looks like', () => {
    const cases: [number[], string][] = [
      [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a], 'This file is a PNG image, not a text file.'],
      [[0x25, 0x50, 0x44, 0x46, 0x2d], 'This file is a PDF document, not a text file.'],
      [[0x50, 0x4b, 0x03, 0x04, 0], 'This file is a ZIP archive (an Anki package? choose the Anki package format), not a text file.'],
      [[0xff, 0xd8, 0xff, 0xe0], 'This file is a JPEG image, not a text file.'],
      [[0x1f, 0x8b, 8], 'This file is a gzip archive, not a text file.'],
      [[...utf8('SQLite format 3'), 0, 1], 'This file is a SQLite database (a Kindle vocab.db? choose the Kindle format), not a text file.'],
    ];
    for (const [bytes, message] of cases) expect(fileError(() => decodeImportText(new Uint8Array(bytes)))).toMatchObject({ code: 'not_text', message });
  });

  it('refuses text that is not UTF-8 (Latin-1) and text holding NUL bytes', () => {
    expect(fileError(() => decodeImportText(new Uint8Array([0x63, 0x61, 0x66, 0xe9])))).toMatchObject({
      code: 'not_text',
      message: expect.stringMatching(/not UTF-8/),
    });
    expect(fileError(() => decodeImportText(utf8('a\u0000b')))).toMatchObject({ code: 'not_text', message: expect.stringMatching(/NUL bytes/) });
  });
});

describe('plain lines', () => {
  it('takes one expression a line: trimmed, blank lines dropped, line numbers kept, BOM and CR/CRLF/LF line ends read', () => {
    const parsed = parse('\uFEFF  break a leg  \r\n\r\ncall it   a day\rrun out of steam\n\n');
    expect(parsed).toEqual({
      format: 'lines',
      rows: [
        { line: 1, text: 'break a leg' },
        { line: 3, text: 'call it a day' },
        { line: 4, text: 'run out of steam' },
      ],
      longLines: [],
      problems: [],
      problemsTotal: 0,
      skipped: noSkips,
    });
  });

  it('keeps the first of the file’s own duplicates (case, spacing and trailing punctuation aside) and counts the others', () => {
    const parsed = parse('Break a leg\nbreak  a LEG!\nfine\nbreak a leg.\nFine\n');
    expect(parsed.rows).toEqual([
      { line: 1, text: 'Break a leg' },
      { line: 3, text: 'fine' },
    ]);
    expect(parsed.skipped).toEqual({ ...noSkips, duplicatesInFile: 3 });
    expect(parsed.problems).toEqual([]);
  });

  it('reports a line over 280 characters as too_long, not as a row, and keeps it aside as a sentence', () => {
    const long = `${'word '.repeat(60)}end`; // 303 characters
    const parsed = parse(`first phrase\n${long}\nsecond phrase\n`);
    expect(parsed.rows).toEqual([
      { line: 1, text: 'first phrase' },
      { line: 3, text: 'second phrase' },
    ]);
    expect(parsed.problems).toEqual([
      { line: 2, code: 'too_long', message: `line 2: 303 characters, longer than a card's ${CAPTURE_TEXT_MAX}; it can be saved as a sentence` },
    ]);
    expect(parsed.longLines).toEqual([{ line: 2, text: long }]);
    expect(parsed.skipped).toEqual({ ...noSkips, tooLong: 1 });
  });

  it('takes exactly 280 characters, counting code points, as a row', () => {
    const atLimit = '😀'.repeat(CAPTURE_TEXT_MAX - 1) + 'a'; // 559 UTF-16 units, 280 code points
    expect(parse(atLimit).rows).toEqual([{ line: 1, text: atLimit }]);
    const over = `a${atLimit}`;
    const parsed = parse(`${over}\nok\n`);
    expect(parsed.rows).toEqual([{ line: 2, text: 'ok' }]);
    expect(parsed.problems).toEqual([{ line: 1, code: 'too_long', message: expect.stringMatching(/^line 1: 281 characters/) }]);
  });

  it('does not keep a line longer than a sentence aside, but still reports it', () => {
    const huge = 'a'.repeat(SENTENCE_MAX_CHARS + 1);
    const parsed = parse(`ok\n${huge}\n`);
    expect(parsed.longLines).toEqual([]);
    expect(parsed.problems).toEqual([{ line: 2, code: 'too_long', message: expect.stringMatching(/^line 2: 1001 characters/) }]);
  });

  it('reports a line with no letter as no_letter, naming its line', () => {
    const parsed = parse('123\nkeep me\n!!! ...\n— 42 —\n');
    expect(parsed.rows).toEqual([{ line: 2, text: 'keep me' }]);
    expect(parsed.problems).toEqual([
      { line: 1, code: 'no_letter', message: 'line 1: holds no letter' },
      { line: 3, code: 'no_letter', message: 'line 3: holds no letter' },
      { line: 4, code: 'no_letter', message: 'line 4: holds no letter' },
    ]);
    expect(parsed.skipped).toEqual({ ...noSkips, invalid: 3 });
  });

  it('refuses a file in which nothing can become a card, with its problems', () => {
    const error = fileError(() => parse('123\n\n456\n'));
    expect(error.code).toBe('nothing_to_import');
    expect(error.details).toEqual({
      problems: [
        { line: 1, code: 'no_letter', message: 'line 1: holds no letter' },
        { line: 3, code: 'no_letter', message: 'line 3: holds no letter' },
      ],
    });
  });

  it('keeps a file of only over-long lines, as sentences', () => {
    const long = 'x'.repeat(300);
    expect(parse(long).longLines).toEqual([{ line: 1, text: long }]);
  });
});

describe('readDelimited', () => {
  it('reads quoted fields holding the separator, line breaks and doubled quotes, each record on the line it starts', () => {
    const problems: ImportProblem[] = [];
    const records = readDelimited('a,"b, c","line one\r\nline two",d\n"say ""hi""",x\n\ne,f\n', ',', { onProblem: (p) => problems.push(p) });
    expect(records).toEqual([
      { line: 1, fields: ['a', 'b, c', 'line one\nline two', 'd'] },
      { line: 3, fields: ['say "hi"', 'x'] },
      { line: 5, fields: ['e', 'f'] },
    ]);
    expect(problems).toEqual([]);
  });

  it('keeps text after a closing quote and a quote inside an unquoted field, as Anki’s reader does', () => {
    expect(readDelimited('"ab"cd,e"f\n', ',')).toEqual([{ line: 1, fields: ['abcd', 'e"f'] }]);
  });

  it('reports a quote that is never closed on the line it opens, keeps the records before it and reads on from the next line', () => {
    const problems: ImportProblem[] = [];
    const records = readDelimited('one,1\n"two,2\nthree,3\nfour,4', ',', { onProblem: (p) => problems.push(p) });
    expect(records).toEqual([
      { line: 1, fields: ['one', '1'] },
      { line: 3, fields: ['three', '3'] },
      { line: 4, fields: ['four', '4'] },
    ]);
    expect(problems).toEqual([{ line: 2, code: 'quote_not_closed', message: 'line 2: a quoted field opens here and is not closed' }]);
  });

  it('reads past unclosed quotes at most once over: a file of them is reported, not rescanned from every line', () => {
    const problems: ImportProblem[] = [];
    expect(readDelimited('a","\n'.repeat(5), ',', { onProblem: (p) => problems.push(p) })).toEqual([]);
    expect(problems).toEqual([
      { line: 1, code: 'quote_not_closed', message: 'line 1: a quoted field opens here and is not closed' },
      { line: 2, code: 'quote_not_closed', message: 'line 2: a quoted field opens here and is not closed; the rest of the file was not read' },
    ]);
  });

  it('keeps a field up to FIELD_MAX_UNITS and reads on', () => {
    const [record] = readDelimited(`${'x'.repeat(FIELD_MAX_UNITS + 10)},y\n`, ',');
    expect(record!.fields.map((f) => f.length)).toEqual([FIELD_MAX_UNITS, 1]);
  });

  it('skips `#` comments only at the start of a record, when asked', () => {
    expect(readDelimited('#note\na,"#b\n#c"\n', ',', { comments: true })).toEqual([{ line: 2, fields: ['a', '#b\n#c'] }]);
    expect(readDelimited('#note\n', ',')).toEqual([{ line: 1, fields: ['#note'] }]);
  });
});

describe('Anki notes in plain text', () => {
  it('reads #separator, #html and #columns headers and makes HTML fields text', () => {
    const file = [
      '#separator:Semicolon',
      '#html:true',
      '#columns:Front;Back',
      '<b>take</b> off;décoller',
      '# a comment',
      '"fish &amp; chips<br>tonight";"frites; poisson"',
      '"a&nbsp;piece&#39;s &#x263A;<div>end</div>";x', // entities hold the separator: Anki quotes such a field
      '{{c1::kick the bucket::die}} today;mourir',
      '',
    ].join('\n');
    const parsed = parse(file);
    expect(parsed.format).toBe('anki');
    expect(parsed.rows).toEqual([
      { line: 4, text: 'take off' },
      { line: 6, text: 'fish & chips tonight' },
      { line: 7, text: "a piece's ☺ end" },
      { line: 8, text: 'kick the bucket today' },
    ]);
    expect(parsed.problems).toEqual([]);
  });

  it('leaves HTML as it is without #html:true, and reads a named tab separator', () => {
    expect(parse('#separator:tab\n<i>as is</i>\tback\n').rows).toEqual([{ line: 2, text: '<i>as is</i>' }]);
  });

  it('skips the GUID, note type, deck and tags columns the headers name', () => {
    const parsed = parse('#separator:tab\n#guid column:1\n#deck column:2\nabc123\tDeck\tthe front\tthe back\n');
    expect(parsed.rows).toEqual([{ line: 4, text: 'the front' }]);
  });

  it('guesses the separator when none is named, and reports an unclosed quote after the headers on the file’s own line', () => {
    const parsed = parse('#html:false\nfirst|1\n"second|2\nthird|3\n');
    expect(parsed.rows).toEqual([
      { line: 2, text: 'first' },
      { line: 4, text: 'third' },
    ]);
    expect(parsed.problems).toEqual([{ line: 3, code: 'quote_not_closed', message: 'line 3: a quoted field opens here and is not closed' }]);
  });

  it('reads our own Anki export back: the bold English at the start of Back', () => {
    const exported: ExportCard = {
      cardId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      text: 'fish & chips',
      correctedText: null,
      translation: 'poisson-frites',
      guidance: 'British <informal>.',
      examples: ['We had fish & chips.'],
      focuses: [],
      createdAt: new Date('2026-01-02T03:04:05.006Z'),
      due: null,
      reps: null,
      lapses: null,
      stability: null,
    };
    const parsed = parse(ankiHeader() + ankiRow(exported)!);
    expect(parsed.rows).toEqual([{ line: 7, text: 'fish & chips' }]);
  });

  it('htmlToText leaves what never closes as it is, as the patterns did', () => {
    expect(htmlToText('a <b and <!-- c and [sound:x and {{c1::d and <style e')).toBe('a <b and <!-- c and [sound:x and {{c1::d and <style e');
    expect(htmlToText('<<<<b>x</b>')).toBe('x');
    expect(htmlToText('[[type:a[[type:b]] c')).toBe('[[type:a c');
    expect(htmlToText('{{c1::one::hint}} and {{c2::two}}')).toBe('one and two');
  });

  it('htmlToText drops sounds, type fields, comments, styles and scripts', () => {
    expect(htmlToText('[sound:x.mp3]<!-- c --><style>p{}</style>word<script>x()</script>[[type:Back]] &lt;tag&gt; &unknown;')).toBe('word <tag> &unknown;');
  });
});

describe('detectTextFormat', () => {
  it('knows Anki by its headers, our export by its header, tables by the file name, else lines', () => {
    expect(detectTextFormat('#separator:tab\nx')).toBe('anki');
    expect(detectTextFormat('\uFEFF#html:true\nx')).toBe('anki');
    expect(detectTextFormat('#columns:Front\tBack\n')).toBe('anki');
    expect(detectTextFormat('tags:one two\nx')).toBe('anki');
    expect(detectTextFormat('cardId,text,correctedText\r\n')).toBe('csv');
    expect(detectTextFormat('cardId\ttext\tcorrectedText\r\n')).toBe('tsv');
    expect(detectTextFormat('a,b\n', 'Words.CSV')).toBe('csv');
    expect(detectTextFormat('a\tb\n', 'words.tsv')).toBe('tsv');
    expect(detectTextFormat('a,b\n', 'words.txt')).toBe('lines');
    expect(detectTextFormat('# my list\nbreak a leg\n')).toBe('lines');
    expect(detectTextFormat('break a leg\n#separator:tab\n')).toBe('lines');
  });
});

describe('finishImportRows', () => {
  it('makes what PostgreSQL cannot store storable: NUL dropped, a lone surrogate replaced, a long context cut between code points', () => {
    const context = `${'🙂'.repeat(SENTENCE_MAX_CHARS)} the bank`;
    const parsed = finishImportRows(
      'kindle',
      [
        { line: 1, text: 'ba\u0000nk', context },
        { line: 2, text: 'river\uD800' },
      ],
      [],
    );
    expect(parsed.rows.map((r) => r.text)).toEqual(['bank', 'river\uFFFD']);
    expect(parsed.rows[0]!.context).toBe('🙂'.repeat(SENTENCE_MAX_CHARS));
    expect(parsed.rows[0]!.context!.isWellFormed()).toBe(true);
  });

  it('cleans a row’s context and keeps it with its row', () => {
    const parsed = finishImportRows('lines', [{ line: 1, text: ' bank ', context: '  the  bank of the river ' }], []);
    expect(parsed.rows).toEqual([{ line: 1, text: 'bank', context: 'the bank of the river' }]);
  });

  it('refuses more than the import limit as soon as it is passed, naming the limit and the line where reading stopped', () => {
    const rows = Array.from({ length: IMPORT_EXPRESSIONS_MAX + 5 }, (_, i) => ({ line: i + 1, text: `word ${i}` }));
    const error = fileError(() => finishImportRows('lines', rows, []));
    expect(error.code).toBe('too_many_expressions');
    expect(error.message).toBe('This file holds more than 10,000 expressions (reading stopped at line 10001); an import takes 10,000. Split the file.');
    expect(error.details).toEqual({ line: 10_001, limit: 10_000 });
  });
});
