import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { allRows, firstRow, sql } from '../../db/sql.ts';
import { AppError } from '../../domain/problems.ts';
import { claimUserLease } from '../../services/leases.ts';
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
  csv: {
    type: 'text/csv',
    file: 'lcs-cards.csv',
    description:
      `One row per card: ${CARD_COLUMNS.join(', ')}. A cell a spreadsheet would evaluate (starting with = + - @, a tab, CR or LF, or their ` +
      `full-width forms, after any apostrophes) starts with one added apostrophe (OWASP CSV injection); drop it to read the text back`,
  },
  tsv: { type: 'text/tab-separated-values', file: 'lcs-cards.tsv', description: 'As csv, tab-separated' },
  anki: {
    type: 'text/plain',
    file: 'lcs-anki.txt',
    description:
      'Anki import text (File → Import): Basic notes, front the translation, back the English with usage and examples; re-importing updates the same notes',
  },
  reviews: { type: 'text/csv', file: 'lcs-reviews.csv', description: `The review log for FSRS optimizers: ${REVIEW_COLUMNS.join(', ')}` },
};

export const exportFormatSchema = z.object({
  format: z
    .enum(EXPORT_FORMATS)
    .default('csv')
    .meta({
      description: Object.entries(MEDIA)
        .map(([f, m]) => `\`${f}\`: ${m.description}.`)
        .join(' '),
    }),
});

/** The operation's input: the format, and the ETag of an export the client already holds. */
export const exportInputSchema = exportFormatSchema.extend({ ifNoneMatch: z.string().optional() });
export const exportHeadersSchema = z.object({
  'if-none-match': z.string().optional().meta({ description: 'The ETag of an earlier export: while the library is unchanged the answer is 304, no body.' }),
});

/**
 * Exports streaming in this API process now. Each reads a whole library through the shared pool a
 * batch at a time, so unbounded they starve every other request of connections (40 at once made
 * `/readyz` miss its deadline); past EXPORT_MAX_CONCURRENT the next is refused at once, not queued.
 */
let streaming = 0;

function takeProcessSlot(max: number): () => void {
  if (streaming >= max) {
    throw new AppError('service_unavailable', 'This server is busy with other library exports; try again in a few seconds.', {}, { retryAfterSeconds: 10 });
  }
  streaming++;
  let released = false;
  return () => {
    if (!released) streaming--;
    released = true;
  };
}

/**
 * The user's one export in flight, whichever API process serves it: a leased row (0019), renewed
 * while the export streams, deleted when it ends; a dead process's lease lapses in seconds.
 * Returns how to let it go, or null when another export of this user holds it.
 */
const claimUserExport = (ctx: FeatureContext, userId: string) => claimUserLease(ctx.em, 'export_leases', userId, ctx.log);

/** The file's text, then the bounds let go before its last byte is sent, so a client that has the whole file may start another at once. */
async function* releasing(text: AsyncGenerator<string>, release: () => Promise<void>): AsyncGenerator<string> {
  try {
    yield* text;
  } finally {
    await release();
  }
}

/** Bumped when the files' content changes for the same data (e.g. the spreadsheet rule), so older ETags stop matching. */
const FILE_VERSION = 2;

/**
 * The export's ETag: every row it reads, by row version (xmin changes with each update of a
 * card, its schedule, its contexts or a review) and id, summed, with their count. One aggregate query.
 */
async function exportEtag(ctx: FeatureContext, userId: string, format: ExportFormat): Promise<string> {
  const row = await firstRow<{ n: number; h: string }>(
    ctx.em,
    format === 'reviews'
      ? sql`SELECT count(*)::int AS n, coalesce(sum(hashtextextended(xmin::text || ':' || id::text, 0)), 0)::text AS h
              FROM review_logs WHERE user_id = ${userId}`
      : sql`SELECT count(*)::int AS n,
              (coalesce(sum(hashtextextended(c.xmin::text || ':' || c.id::text || ':' || coalesce(s.xmin::text, '-'), 0)), 0)::text || ':' ||
               (SELECT count(*) || ':' || coalesce(sum(hashtextextended(x.xmin::text || ':' || x.id::text, 0)), 0)
                  FROM card_contexts x JOIN cards xc ON xc.id = x.card_id WHERE xc.user_id = ${userId})) AS h
            FROM cards c LEFT JOIN card_schedules s ON s.card_id = c.id WHERE c.user_id = ${userId}`,
  );
  const digest = createHash('sha256').update(`${FILE_VERSION}:${format}:${row!.n}:${row!.h}`).digest('base64url').slice(0, 27);
  return `"${format}-${digest}"`;
}

/** Whether an `If-None-Match` value names this ETag (a list, `*`, or a weak form of it). */
export const etagMatches = (ifNoneMatch: string | undefined, etag: string) =>
  ifNoneMatch !== undefined && ifNoneMatch.split(',').some((tag) => ['*', etag, `W/${etag}`].includes(tag.trim()));

/** An export: its cache validators, and the file unless the client already holds this version (its ETag). */
export interface LibraryExport {
  cache: { etag: string; 'cache-control': string };
  file: { mediaType: string; name: string; body: Readable } | null;
}

/**
 * The caller's whole library (or review log) as a file, streamed: rows are read a batch at a time
 * through a keyset cursor, and the next batch only when the client has taken the last one, so
 * 100,000 cards never sit in memory. The web app links to it. Bounded: the user's one export
 * lease and a slot of this process are held until the stream closes (read to the end, dropped, or cut
 * off after EXPORT_MAX_SECONDS, so a client reading a byte a second cannot keep them), and an
 * unchanged library answers 304 from its ETag.
 */
export async function exportLibrary(ctx: FeatureContext, userId: string, format: ExportFormat, ifNoneMatch?: string): Promise<LibraryExport> {
  // The user's lease first (one cheap statement), so that a user's own second export is told so (429) whatever the server's load.
  const releaseLease = await claimUserExport(ctx, userId);
  if (!releaseLease) {
    throw new AppError('rate_limited', 'An export of your library is already running; wait for it to finish.', { limit: 'export' }, { retryAfterSeconds: 10 });
  }
  let releaseSlot = () => {};
  const release = async () => {
    releaseSlot();
    await releaseLease();
  };
  try {
    releaseSlot = takeProcessSlot(ctx.config.exports.maxConcurrent);
    const etag = await exportEtag(ctx, userId, format);
    // private: one learner's data, never for a shared cache; no-cache: revalidate every time.
    const cache = { etag, 'cache-control': 'private, no-cache' };
    if (etagMatches(ifNoneMatch, etag)) {
      await release();
      return { cache, file: null };
    }
    const media = MEDIA[format];
    // A dropped or cut-off download destroys the stream, which ends the generator, whose `finally` lets go.
    // One batch buffered, not Readable.from's default 16: with 16, a client that reads nothing still had
    // 16,000 cards read for it (an unread 10,000-card export finished in 0.5 s and gave up its slot).
    const body = Readable.from(releasing(exportText(ctx, userId, format), release), { highWaterMark: 1 });
    const cutOff = setTimeout(() => body.destroy(new Error('export exceeded EXPORT_MAX_SECONDS')), ctx.config.exports.maxSeconds * 1000).unref();
    body.once('close', () => {
      clearTimeout(cutOff);
      void release(); // also when the generator never started
    });
    return { cache, file: { mediaType: media.type, name: media.file, body } };
  } catch (error) {
    await release();
    throw error;
  }
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
