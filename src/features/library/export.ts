import { Readable } from 'node:stream';
import { z } from 'zod';
import { allRows, sql } from '../../db/sql.ts';
import type { StreamedAnswer, StreamedResponse } from '../../http/operation.ts';
import type { FeatureContext } from '../context.ts';
import {
  ankiHeader,
  ankiRow,
  CARD_COLUMNS,
  cardFields,
  delimitedRow,
  EXPORT_FORMATS,
  type ExportCard,
  type ExportFormat,
  type ExportReview,
  REVIEW_COLUMNS,
  reviewFields,
} from './export-format.ts';

/** Rows read per query: enough to keep the database round trips few, small enough to hold. */
const BATCH = 1000;

const MEDIA: Record<ExportFormat, { type: string; file: string; description: string }> = {
  csv: { type: 'text/csv', file: 'lcs-cards.csv', description: `One row per card: ${CARD_COLUMNS.join(', ')}` },
  tsv: { type: 'text/tab-separated-values', file: 'lcs-cards.tsv', description: 'As csv, tab-separated' },
  anki: {
    type: 'text/plain',
    file: 'lcs-anki.txt',
    description:
      'Anki import text (File → Import): Basic notes, front the translation, back the English with usage and examples; re-importing updates the same notes',
  },
  reviews: { type: 'text/csv', file: 'lcs-reviews.csv', description: `The review log for FSRS optimizers: ${REVIEW_COLUMNS.join(', ')}` },
};

export const exportQuerySchema = z.object({
  format: z
    .enum(EXPORT_FORMATS)
    .default('csv')
    .meta({
      description: Object.entries(MEDIA)
        .map(([f, m]) => `\`${f}\`: ${m.description}.`)
        .join(' '),
    }),
});
const textBody = { schema: z.string().meta({ description: 'UTF-8 text, streamed' }) };

/** The export's answer in the API reference: a file, in its format's media type. */
export const exportResponses: Record<number, StreamedResponse> = {
  200: {
    description: 'The file (Content-Disposition: attachment)',
    content: { 'text/csv': textBody, 'text/tab-separated-values': textBody, 'text/plain': textBody },
  },
};

/**
 * The caller's whole library (or review log) as a file, streamed: rows are read a batch at a time
 * through a keyset cursor, and the next batch only when the client has taken the last one, so
 * 100,000 cards never sit in memory. The web app links to it.
 */
export function exportLibrary(ctx: FeatureContext, userId: string, format: ExportFormat): StreamedAnswer {
  const media = MEDIA[format];
  return {
    headers: {
      'content-type': `${media.type}; charset=utf-8`,
      'content-disposition': `attachment; filename="${media.file}"`,
      'cache-control': 'private, no-store',
    },
    body: Readable.from(exportText(ctx, userId, format)),
  };
}

async function* exportText(ctx: FeatureContext, userId: string, format: ExportFormat): AsyncGenerator<string> {
  if (format === 'reviews') {
    yield delimitedRow(REVIEW_COLUMNS, ',');
    for await (const reviews of reviewBatches(ctx, userId)) yield reviews.map((r) => delimitedRow(reviewFields(r), ',')).join('');
    return;
  }
  const separator = format === 'csv' ? ',' : '\t';
  yield format === 'anki' ? ankiHeader() : delimitedRow(CARD_COLUMNS, separator);
  for await (const cards of cardBatches(ctx, userId)) {
    yield cards.map((card) => (format === 'anki' ? (ankiRow(card) ?? '') : delimitedRow(cardFields(card), separator))).join('');
  }
}

interface CardRow {
  id: string;
  text: string;
  created_at: Date;
  enrichment: {
    translation: string;
    correctedText: string | null;
    usage: { guidance: string; examples: string[] };
    focuses: { kind: string; note: string }[];
  } | null;
  due: Date | null;
  reps: number | null;
  lapses: number | null;
  stability: number | null;
  contexts: { text: string; start: number; end: number }[];
  met_count: number;
  last_met_at: Date | null;
}

/** The user's cards, oldest first, a batch per query after the last (created_at, id) seen (created_at is kept to the millisecond, as a Date holds it). */
async function* cardBatches(ctx: FeatureContext, userId: string): AsyncGenerator<ExportCard[]> {
  let after: { createdAt: Date; id: string } | null = null;
  for (;;) {
    const rows: CardRow[] = await allRows<CardRow>(
      ctx.em,
      sql`SELECT c.id, c.text, c.created_at, c.enrichment, s.due, s.reps, s.lapses, s.stability, c.met_count, c.last_met_at,
         (SELECT coalesce(jsonb_agg(jsonb_build_object('text', x.text, 'start', x.mark_start, 'end', x.mark_end) ORDER BY x.created_at, x.id), '[]')
          FROM card_contexts x WHERE x.card_id = c.id) AS contexts
       FROM cards c LEFT JOIN card_schedules s ON s.card_id = c.id
       WHERE c.user_id = ${userId} ${after ? sql`AND (c.created_at, c.id) > (${after.createdAt}, ${after.id})` : sql``}
       ORDER BY c.created_at, c.id LIMIT ${BATCH}`,
    );
    if (rows.length === 0) return;
    yield rows.map((r) => ({
      cardId: r.id,
      text: r.text,
      createdAt: new Date(r.created_at),
      correctedText: r.enrichment?.correctedText ?? null,
      translation: r.enrichment?.translation ?? null,
      guidance: r.enrichment?.usage.guidance ?? null,
      examples: r.enrichment?.usage.examples ?? [],
      focuses: r.enrichment?.focuses ?? [],
      due: r.due && new Date(r.due),
      reps: r.reps,
      lapses: r.lapses,
      stability: r.stability === null ? null : Number(r.stability),
      contexts: r.contexts,
      metCount: r.met_count,
      lastMetAt: r.last_met_at && new Date(r.last_met_at),
    }));
    const last = rows[rows.length - 1]!;
    after = { createdAt: new Date(last.created_at), id: last.id };
    if (rows.length < BATCH) return;
  }
}

/** The user's reviews in the order they happened (the log is the replay feature's; this only reads it). */
async function* reviewBatches(ctx: FeatureContext, userId: string): AsyncGenerator<ExportReview[]> {
  // The cursor keeps reviewed_at as PostgreSQL's text: a JS Date would drop its microseconds.
  let after: { reviewedAt: string; id: string } | null = null;
  for (;;) {
    const rows: {
      id: string;
      card_id: string;
      reviewed_at: Date;
      cursor_at: string;
      rating: ExportReview['rating'];
      state: ExportReview['state'];
      duration_ms: number | null;
    }[] = await allRows(
      ctx.em,
      sql`SELECT id, card_id, reviewed_at, reviewed_at::text AS cursor_at, rating, state, duration_ms FROM review_logs
       WHERE user_id = ${userId} ${after ? sql`AND (reviewed_at, id) > (${after.reviewedAt}::timestamptz, ${after.id})` : sql``}
       ORDER BY reviewed_at, id LIMIT ${BATCH}`,
    );
    if (rows.length === 0) return;
    yield rows.map((r) => ({ cardId: r.card_id, reviewedAt: new Date(r.reviewed_at), rating: r.rating, state: r.state, durationMs: r.duration_ms }));
    const last = rows[rows.length - 1]!;
    after = { reviewedAt: last.cursor_at, id: last.id };
    if (rows.length < BATCH) return;
  }
}
