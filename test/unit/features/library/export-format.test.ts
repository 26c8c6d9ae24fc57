import { describe, expect, it } from 'vitest';
import {
  ankiHeader,
  ankiRow,
  cardFields,
  delimitedField,
  delimitedRow,
  ankiFields,
  type ExportCard,
  reviewFields,
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
      '',
      '0',
      '',
    ]);
  });

  it('gives the learner’s sentences and encounters columns of their own', () => {
    const met = { ...card, contexts: [{ text: 'Say "cheese", everyone.', start: 0, end: 12 }], metCount: 7, lastMetAt: new Date('2026-02-01T00:00:00Z') };
    expect(cardFields(met).slice(-3)).toEqual(['Say "cheese", everyone.', '7', '2026-02-01T00:00:00.000Z']);
  });
});

describe('Anki: the learner’s sentences on the back', () => {
  it('lists them with the expression in bold, escaped', () => {
    const back = ankiFields({ ...card, contexts: [{ text: 'Say "cheese" <now>', start: 0, end: 12 }] })!.Back;
    expect(back).toContain('<i>Where you met it:</i><ul><li><b>Say &quot;cheese&quot;</b> &lt;now&gt;</li></ul>');
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
