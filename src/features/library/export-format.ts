/**
 * The library's export formats, row by row, so that a whole library streams without being held:
 * CSV/TSV with RFC 4180 quoting, Anki's import text (header lines, a GUID column so that
 * re-importing updates notes), and the review log in the columns FSRS optimizers read.
 */
import { spreadsheetSafe } from '../../domain/spreadsheet-cells.ts';

/** Cells that would run as formulas: made safe on the way out, read back exactly by the importer. */
export { spreadsheetSafe, spreadsheetText } from '../../domain/spreadsheet-cells.ts';

export const EXPORT_FORMATS = ['csv', 'tsv', 'anki', 'reviews'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportCard {
  cardId: string;
  text: string;
  correctedText: string | null;
  translation: string | null;
  guidance: string | null;
  examples: string[];
  focuses: { kind: string; note: string }[];
  createdAt: Date;
  due: Date | null;
  reps: number | null;
  lapses: number | null;
  stability: number | null;
  /** The learner's own sentences, oldest first, with the expression's place (code points). */
  contexts?: { text: string; start: number; end: number }[];
  /** Encounters: how often the learner met it on pages (never reviews: the review log has none). */
  metCount?: number;
  lastMetAt?: Date | null;
}

export interface ExportReview {
  cardId: string;
  reviewedAt: Date;
  rating: 'again' | 'hard' | 'good' | 'easy';
  state: 'new' | 'learning' | 'review' | 'relearning';
  /** How long the learner took over the Replay item, when the client said (`durationMs`). */
  durationMs: number | null;
}

/** RFC 4180: a field holding the separator, a quote, CR or LF is quoted, its quotes doubled. */
export function delimitedField(value: string, separator: string): string {
  return value.includes(separator) || /["\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** One record, CRLF-terminated as RFC 4180 says, every cell made safe for a spreadsheet first. */
export const delimitedRow = (fields: readonly string[], separator: string) =>
  `${fields.map((f) => delimitedField(spreadsheetSafe(f), separator)).join(separator)}\r\n`;

export const CARD_COLUMNS = [
  'cardId',
  'text',
  'correctedText',
  'translation',
  'usageGuidance',
  'examples',
  'focuses',
  'created',
  'due',
  'reps',
  'lapses',
  'stability',
  'contexts',
  'metCount',
  'lastMet',
] as const;

/** A card's fields in CARD_COLUMNS order; several examples or focuses are one field, a line each. */
export function cardFields(card: ExportCard): string[] {
  return [
    card.cardId,
    card.text,
    card.correctedText ?? '',
    card.translation ?? '',
    card.guidance ?? '',
    card.examples.join('\n'),
    card.focuses.map((f) => `${f.kind}: ${f.note}`).join('\n'),
    card.createdAt.toISOString(),
    card.due?.toISOString() ?? '',
    String(card.reps ?? ''),
    String(card.lapses ?? ''),
    String(card.stability ?? ''),
    (card.contexts ?? []).map((c) => c.text).join('\n'),
    String(card.metCount ?? 0),
    card.lastMetAt?.toISOString() ?? '',
  ];
}

/** A sentence with the expression in bold, as HTML. */
const markedHtml = (c: { text: string; start: number; end: number }) => {
  const chars = Array.from(c.text);
  return `${html(chars.slice(0, c.start).join(''))}<b>${html(chars.slice(c.start, c.end).join(''))}</b>${html(chars.slice(c.end).join(''))}`;
};

export const ANKI_DECK = 'Language Capture';
const ANKI_COLUMNS = ['guid', 'Front', 'Back'] as const;

/**
 * Anki's file headers (https://docs.ankiweb.net/importing/text-files.html#file-headers): tab
 * separated, HTML fields, the Basic note type, our deck, and the card id as the note's GUID, so
 * that importing a newer export updates the notes it made before instead of adding copies.
 */
export function ankiHeader(): string {
  return [
    '#separator:tab',
    '#html:true',
    '#notetype:Basic',
    `#deck:${ANKI_DECK}`,
    `#columns:${ANKI_COLUMNS.join('\t')}`,
    `#guid column:${ANKI_COLUMNS.indexOf('guid') + 1}`,
  ]
    .map((line) => `${line}\n`)
    .join('');
}

const html = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll('\t', ' ').replace(/\r?\n/g, '<br>');

/**
 * A Basic note's fields for a prepared card (one without a translation has no front yet): the
 * native-language prompt in front, the English with its usage, examples and the learner's own
 * sentences (the expression in bold) on the back, as HTML
 * with tabs, line breaks and quotes escaped (the Anki file and AnkiConnect push use the same).
 */
export function ankiFields(
  card: Pick<ExportCard, 'text' | 'correctedText' | 'translation' | 'guidance' | 'examples' | 'contexts'>,
): { Front: string; Back: string } | null {
  if (!card.translation) return null;
  const contexts = card.contexts ?? [];
  const back = [
    `<b>${html(card.correctedText ?? card.text)}</b>`,
    ...(card.guidance ? [html(card.guidance)] : []),
    ...(card.examples.length ? [`<ul>${card.examples.map((e) => `<li>${html(e)}</li>`).join('')}</ul>`] : []),
    ...(contexts.length ? [`<i>Where you met it:</i><ul>${contexts.map((c) => `<li>${markedHtml(c)}</li>`).join('')}</ul>`] : []),
  ].join('<br>');
  return { Front: html(card.translation), Back: back };
}

/** A line of the Anki file; its fields never need quoting. */
export function ankiRow(card: ExportCard): string | null {
  const fields = ankiFields(card);
  return fields && `${[card.cardId, fields.Front, fields.Back].join('\t')}\n`;
}

/** The revlog columns of the FSRS optimizers (fsrs-rs, fsrs-optimizer); duration in ms, 0 when the client did not send it. */
export const REVIEW_COLUMNS = ['card_id', 'review_time', 'review_rating', 'review_state', 'review_duration'] as const;
const RATINGS = { again: 1, hard: 2, good: 3, easy: 4 } as const;
const STATES = { new: 0, learning: 1, review: 2, relearning: 3 } as const;

export const reviewFields = (review: ExportReview): string[] => [
  review.cardId,
  String(review.reviewedAt.getTime()),
  String(RATINGS[review.rating]),
  String(STATES[review.state]),
  String(review.durationMs ?? 0),
];
