import { createHash, randomUUID } from 'node:crypto';
import type { Em } from '../../../db/orm.ts';
import { allRows, firstRow, run, sql } from '../../../db/sql.ts';
import { finishImportRows, ImportFileError, IMPORT_PROBLEMS_KEPT, type ParsedImport } from '../../../domain/imports.ts';
import { normaliseExpression } from '../../../domain/normalise.ts';
import type { Plan } from '../../../domain/plans.ts';
import { AppError, libraryFull } from '../../../domain/problems.ts';
import { claimUserLease } from '../../../services/leases.ts';
import { readBucket, spendFromBucket, userBucket } from '../../../services/rate-limit-store.ts';
import { WORKFLOW_KINDS, workflowId } from '../../../temporal/workflow-ids.ts';
import type { FeatureContext } from '../../context.ts';
import { announceStatusChange } from '../../status/changes.ts';
import type { ReadOptions } from './readers.ts';
import { readImportFile, readingAlready } from './reading.ts';
import { importOutcome, type ImportCounts } from './progress-rules.ts';
import type { ImportState, ImportView } from './schemas.ts';

export const importWorkflowId = (importId: string) => workflowId(WORKFLOW_KINDS.libraryImport, importId);

interface ImportRow {
  id: string;
  user_id: string;
  idempotency_key: string;
  content_sha256: string;
  format: string;
  file_name: string | null;
  state: ImportState;
  total: number;
  skipped: ImportView['skipped'];
  problems: ImportView['problems'];
  problems_total: number;
  resume_at: Date | null;
  history_cards: number;
  history_reviews: number;
  created_at: Date;
  finished_at: Date | null;
}

const IMPORT_COLUMNS = sql.raw(
  `i.id, i.user_id, i.idempotency_key, i.content_sha256, i.format, i.file_name, i.state, i.total, i.skipped, i.problems, i.problems_total, i.resume_at, ` +
    `i.history_cards, i.history_reviews, i.created_at, i.finished_at`,
);

// ---- Reading what was sent --------------------------------------------------------------------

/**
 * A file's bytes as an import, read in a reader thread (readImportFile): Kindle's vocab.db by its
 * SQLite header, its `.db` name or when named, any other format as text (a text file named
 * vocab.db is refused as not SQLite, not read as lines).
 */
export async function parseImportFile(ctx: FeatureContext, userId: string, bytes: Uint8Array, options: ReadOptions): Promise<ParsedImport> {
  // One read per learner whichever API process serves it (0029): let go once the thread has answered, failed or been ended.
  const release = await claimUserLease(ctx.em, 'import_read_leases', userId, ctx.log);
  if (!release) throw readingAlready();
  try {
    return await readImportFile(ctx, userId, bytes, options);
  } catch (error) {
    throw asProblem(error);
  } finally {
    await release();
  }
}

/** A list of expressions as an import: each item one row, its position its line. */
export function parseExpressionList(expressions: (string | { text: string; context?: string | undefined })[]): ParsedImport {
  try {
    const rows = expressions.map((item, i) =>
      typeof item === 'string' ? { line: i + 1, text: item } : { line: i + 1, text: item.text, context: item.context },
    );
    return finishImportRows('lines', rows, []);
  } catch (error) {
    throw asProblem(error);
  }
}

/** A file that cannot be imported is a 400 naming why (`reason`), with the details a client needs (the columns there are, the limit). */
function asProblem(error: unknown): unknown {
  if (!(error instanceof ImportFileError)) return error;
  return new AppError('invalid_request', error.message, { reason: error.code, ...error.details, errors: [{ path: 'file', message: error.message }] });
}

/** The content's hash, the import's key when the client sends no Idempotency-Key. */
function contentHash(parsed: ParsedImport): string {
  const hash = createHash('sha256');
  hash.update(parsed.format);
  for (const row of parsed.rows) {
    hash.update(
      `\u0000${row.text}\u0001${row.context ?? ''}${row.source ? `\u0002${row.source}` : ''}${row.history ? `\u0003${JSON.stringify(row.history)}` : ''}`,
    );
  }
  return hash.digest('hex');
}

// ---- Creating ---------------------------------------------------------------------------------

export interface CreateImport {
  userId: string;
  parsed: ParsedImport;
  fileName?: string | null | undefined;
  idempotencyKey?: string | undefined;
}

export interface CreatedImport {
  import: ImportView;
  parsed: { expressions: number; skipped: ImportView['skipped']; problemsTotal: number };
  replayed: boolean;
}

/**
 * Records an import: the import, its rows (the text lives here, never in Temporal) and the outbox
 * row that starts `library-import/<importId>`, in one transaction. The same content (or
 * Idempotency-Key) again returns the same import; a key reused for other content is a 422. While
 * one import of the learner runs, another is a 409 naming it.
 */
export async function createImport(ctx: FeatureContext, request: CreateImport): Promise<CreatedImport> {
  const { parsed, userId } = request;
  const sha = contentHash(parsed);
  const key = request.idempotencyKey ?? `sha256:${sha}`;
  const summary = { expressions: parsed.rows.length, skipped: parsed.skipped, problemsTotal: parsed.problemsTotal };
  if (parsed.rows.length === 0) {
    throw new AppError('invalid_request', 'Nothing in this file can become a card.', {
      reason: 'nothing_to_import',
      problems: parsed.problems.slice(0, 20),
      errors: [{ path: 'file', message: 'no expression to import' }],
    });
  }
  for (let round = 0; round < 2; round++) {
    const existing = await firstRow<ImportRow>(
      ctx.em,
      sql`SELECT ${IMPORT_COLUMNS} FROM library_imports i WHERE i.user_id = ${userId} AND i.idempotency_key = ${key} AND i.state <> 'cancelled'`,
    );
    if (existing) {
      if (existing.content_sha256 !== sha) {
        throw new AppError('request_id_reused', 'This Idempotency-Key was used for another import with different content.', { importId: existing.id });
      }
      return { import: await viewOf(ctx.em, existing), parsed: summary, replayed: true };
    }
    const running = await firstRow<{ id: string }>(
      ctx.em,
      sql`SELECT id FROM library_imports WHERE user_id = ${userId} AND state IN ('saving', 'preparing', 'waiting_for_credits')`,
    );
    if (running) {
      throw new AppError('conflict', 'Another import of yours is running; wait for it to finish or cancel it.', { importId: running.id });
    }
    const importId = randomUUID();
    try {
      await ctx.em.transactional(async (tx) => {
        await admitNewCards(ctx, tx, userId, parsed);
        await run(
          tx,
          sql`INSERT INTO library_imports (id, user_id, idempotency_key, content_sha256, format, file_name, total, skipped, problems, problems_total)
           VALUES (${importId}, ${userId}, ${key}, ${sha}, ${parsed.format}, ${request.fileName ?? null}, ${parsed.rows.length},
             ${JSON.stringify(parsed.skipped)}::jsonb, ${JSON.stringify(parsed.problems.slice(0, IMPORT_PROBLEMS_KEPT))}::jsonb, ${parsed.problemsTotal})`,
        );
        await run(
          tx,
          sql`INSERT INTO library_import_rows (import_id, position, line, text, context, source, history)
           SELECT ${importId}, r.position, r.line, r.text, r.context, r.source, r.history
           FROM unnest(${parsed.rows.map((_, i) => i)}::int[], ${parsed.rows.map((r) => r.line)}::int[], ${parsed.rows.map((r) => r.text)}::text[],
             ${parsed.rows.map((r) => r.context ?? null)}::text[], ${parsed.rows.map((r) => r.source ?? null)}::text[],
             ${parsed.rows.map((r) => (r.history ? JSON.stringify(r.history) : null))}::jsonb[])
             AS r (position, line, text, context, source, history)`,
        );
        await ctx.workflows.enqueue(
          tx,
          ctx.workflows.start('libraryImport', [{ importId }], { workflowId: importWorkflowId(importId), userId, kind: WORKFLOW_KINDS.libraryImport }),
        );
      });
    } catch (error) {
      // Two requests with the same content at once, or two imports started at once: the unique indexes decide; look again.
      if ((error as { code?: string }).code === '23505') continue;
      throw error;
    }
    ctx.workflows.wakeRelay();
    return { import: await getImport(ctx, userId, importId), parsed: summary, replayed: false };
  }
  throw new AppError('conflict', 'Another import of yours started at the same moment; look at your imports.');
}

/**
 * An import's new cards against the learner's plan, in the transaction that records it (the
 * learner's row locked, as captures lock it): they must fit in the library (409 library_full),
 * and within what imports may create in an hour (429 `limit: "import_cards"` with the wait). The
 * hour's allowance is taken here, so a cancelled import's cards still count.
 */
async function admitNewCards(ctx: FeatureContext, tx: Em, userId: string, parsed: ParsedImport): Promise<void> {
  const user = (await firstRow<{ card_count: number; plan: Plan }>(tx, sql`SELECT card_count, plan FROM users WHERE id = ${userId} FOR NO KEY UPDATE`))!;
  const known = await firstRow<{ n: number }>(
    tx,
    sql`SELECT count(*)::int AS n FROM cards
     WHERE user_id = ${userId} AND normalised_key = ANY(${parsed.rows.map((r) => normaliseExpression(r.text))}::text[])`,
  );
  const adding = parsed.rows.length - (known?.n ?? 0);
  if (adding <= 0) return;
  const limit = ctx.config.library.maxCards[user.plan];
  if (user.card_count + adding > limit) throw libraryFull(limit, user.card_count, adding);
  const perHour = ctx.config.library.importCardsPerHour[user.plan];
  const quota = { limit: perHour, periodMs: 3_600_000 };
  if (adding > perHour) {
    throw new AppError(
      'rate_limited',
      `This import would create ${adding.toLocaleString('en')} cards; imports create at most ${perHour.toLocaleString('en')} an hour on your plan. ` +
        'Split the file.',
      { limit: 'import_cards', perHour },
      { retryAfterSeconds: 3600 },
    );
  }
  const bucket = userBucket('import_cards', userId);
  const { tatMs, nowMs } = await readBucket(tx, bucket);
  const waitMs = cardsWaitMs(tatMs, nowMs, quota, adding);
  if (waitMs > 0) {
    throw rateLimitedFor(
      `Imports have created as many cards as your plan allows in an hour; ${adding.toLocaleString('en')} more fit in ${inWords(waitMs)}.`,
      { limit: 'import_cards', perHour },
      waitMs,
    );
  }
  await spendFromBucket(tx, bucket, quota, adding);
}

/** How long until `count` fit in a GCRA bucket of `quota` whose TAT is `tatMs` (0: now). */
function cardsWaitMs(tatMs: number | null, nowMs: number, quota: { limit: number; periodMs: number }, count: number): number {
  const emission = quota.periodMs / quota.limit;
  const start = Math.max(tatMs ?? nowMs, nowMs);
  return Math.max(0, start + count * emission - quota.periodMs - nowMs);
}

/** A wait as a learner reads it: seconds under two minutes, else minutes. */
const inWords = (ms: number) => (ms < 120_000 ? `${Math.max(1, Math.ceil(ms / 1000))} s` : `${Math.ceil(ms / 60_000)} min`);

const rateLimitedFor = (detail: string, extensions: Record<string, unknown>, waitMs: number) =>
  new AppError('rate_limited', detail, extensions, { retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) });

// ---- Reading ----------------------------------------------------------------------------------

interface CountsRow {
  total: number;
  saved: number;
  reused: number;
  prepared: number;
  preparing: number;
  waiting: number;
  removed: number;
}

/** The import's counts, from its rows and their cards. */
async function importCounts(em: Em, importId: string, state: ImportState): Promise<ImportCounts> {
  const counts = (await firstRow<CountsRow>(
    em,
    sql`SELECT count(*)::int AS total,
       count(*) FILTER (WHERE r.outcome = 'new' AND c.id IS NOT NULL)::int AS saved,
       count(*) FILTER (WHERE r.outcome = 'reused' AND c.id IS NOT NULL)::int AS reused,
       count(*) FILTER (WHERE r.outcome = 'new' AND c.enrichment_status = 'ready')::int AS prepared,
       count(*) FILTER (WHERE r.outcome = 'new' AND c.enrichment_status = 'pending' AND r.started_at IS NOT NULL)::int AS preparing,
       count(*) FILTER (WHERE r.outcome = 'new' AND c.enrichment_status = 'pending' AND r.started_at IS NULL)::int AS waiting,
       count(*) FILTER (WHERE r.outcome IS NOT NULL AND c.id IS NULL)::int AS removed
     FROM library_import_rows r LEFT JOIN cards c ON c.id = r.card_id WHERE r.import_id = ${importId}`,
  ))!;
  const failures = await allRows<{ code: string; n: number }>(
    em,
    sql`SELECT coalesce(c.enrichment_error ->> 'code', 'internal_error') AS code, count(*)::int AS n
     FROM library_import_rows r JOIN cards c ON c.id = r.card_id
     WHERE r.import_id = ${importId} AND r.outcome = 'new' AND c.enrichment_status = 'failed' GROUP BY 1`,
  );
  const failed: Record<string, number> = {};
  let outOfCredits = 0;
  for (const { code, n } of failures) {
    if (code === 'insufficient_credits') outOfCredits = n;
    else failed[code] = n;
  }
  // A card refused for credits is not settled while the import runs: the import prepares it again
  // once credits are back. Counted once, as waiting, so the bar never goes back; failed only once
  // the import has stopped and will not.
  const stopped = state === 'completed' || state === 'cancelled';
  return {
    ...counts,
    waiting: state === 'waiting_for_credits' ? 0 : counts.waiting,
    waitingForCredits: stopped ? 0 : outOfCredits + (state === 'waiting_for_credits' ? counts.waiting : 0),
    failed: stopped && outOfCredits > 0 ? { ...failed, insufficient_credits: outOfCredits } : failed,
  };
}

async function viewOf(em: Em, row: ImportRow): Promise<ImportView> {
  const counts = await importCounts(em, row.id, row.state);
  // Before the rows are saved, the file's count is the total.
  counts.total = row.total;
  const resumeAt = row.resume_at ? new Date(row.resume_at) : null;
  return {
    importId: row.id,
    state: row.state,
    format: row.format,
    fileName: row.file_name,
    createdAt: new Date(row.created_at).toISOString(),
    finishedAt: row.finished_at ? new Date(row.finished_at).toISOString() : null,
    resumeAt: row.state === 'waiting_for_credits' && resumeAt ? resumeAt.toISOString() : null,
    counts,
    skipped: row.skipped,
    problems: row.problems,
    problemsTotal: row.problems_total,
    history: row.history_cards > 0 ? { cards: row.history_cards, reviews: row.history_reviews } : null,
    outcome: importOutcome(row.state, counts, resumeAt, row.history_cards > 0 ? { cards: row.history_cards, reviews: row.history_reviews } : null),
  };
}

export async function getImport(ctx: FeatureContext, userId: string, importId: string): Promise<ImportView> {
  const row = await firstRow<ImportRow>(ctx.em, sql`SELECT ${IMPORT_COLUMNS} FROM library_imports i WHERE i.id = ${importId} AND i.user_id = ${userId}`);
  if (!row) throw new AppError('not_found', 'No such import of yours.');
  return viewOf(ctx.em, row);
}

/** The learner's 20 newest imports. */
export async function listImports(ctx: FeatureContext, userId: string): Promise<ImportView[]> {
  const rows = await allRows<ImportRow>(
    ctx.em,
    sql`SELECT ${IMPORT_COLUMNS} FROM library_imports i WHERE i.user_id = ${userId} ORDER BY i.created_at DESC LIMIT 20`,
  );
  return Promise.all(rows.map((row) => viewOf(ctx.em, row)));
}

const ROWS_PAGE = 500;

/** The import's rows with their cards, in file order, a page at a time. */
export async function importRows(ctx: FeatureContext, userId: string, importId: string, cursor = 0) {
  await getImportRow(ctx.em, userId, importId);
  const rows = await allRows<{
    position: number;
    line: number;
    text: string;
    source: string | null;
    card_id: string | null;
    outcome: 'new' | 'reused' | null;
    status: 'pending' | 'ready' | 'failed' | null;
    error_code: string | null;
  }>(
    ctx.em,
    sql`SELECT r.position, r.line, r.text, r.source, r.card_id, r.outcome, c.enrichment_status AS status, c.enrichment_error ->> 'code' AS error_code
     FROM library_import_rows r LEFT JOIN cards c ON c.id = r.card_id
     WHERE r.import_id = ${importId} AND r.position >= ${cursor} ORDER BY r.position LIMIT ${ROWS_PAGE + 1}`,
  );
  const page = rows.slice(0, ROWS_PAGE);
  return {
    items: page.map((r) => ({
      position: r.position,
      line: r.line,
      text: r.text,
      source: r.source,
      cardId: r.card_id,
      outcome: r.outcome,
      status: r.status,
      errorCode: r.error_code,
    })),
    nextCursor: rows.length > ROWS_PAGE ? rows[ROWS_PAGE]!.position : null,
  };
}

async function getImportRow(em: Em, userId: string, importId: string): Promise<ImportRow> {
  const row = await firstRow<ImportRow>(em, sql`SELECT ${IMPORT_COLUMNS} FROM library_imports i WHERE i.id = ${importId} AND i.user_id = ${userId}`);
  if (!row) throw new AppError('not_found', 'No such import of yours.');
  return row;
}

/** What an import of this file would do, storing nothing: its counts, its first rows, which are in the library already. */
export async function previewImport(ctx: FeatureContext, userId: string, parsed: ParsedImport) {
  const keys = parsed.rows.map((row) => normaliseExpression(row.text));
  const known = new Set(
    (
      await allRows<{ normalised_key: string }>(
        ctx.em,
        sql`SELECT normalised_key FROM cards WHERE user_id = ${userId} AND normalised_key = ANY(${keys}::text[])`,
      )
    ).map((r) => r.normalised_key),
  );
  return {
    format: parsed.format,
    ...(parsed.anki ? { anki: parsed.anki } : {}),
    expressions: parsed.rows.length,
    inLibrary: keys.filter((k) => known.has(k)).length,
    skipped: parsed.skipped,
    problems: parsed.problems.slice(0, IMPORT_PROBLEMS_KEPT),
    problemsTotal: parsed.problemsTotal,
    first: parsed.rows.slice(0, 20).map((row, i) => ({
      line: row.line,
      text: row.text,
      ...(row.context ? { context: row.context } : {}),
      ...(row.source ? { source: row.source } : {}),
      inLibrary: known.has(keys[i]!),
    })),
    longLines: parsed.longLines.slice(0, 20),
  };
}

// ---- Cancelling -------------------------------------------------------------------------------

/**
 * Cancels a running import: its state first (the truth its pacing reads, under the same row
 * lock), the saved cards whose preparation had not started marked failed `import_cancelled`
 * (preparable again from the library), then the workflow. Nothing saved is removed. Cancelling a
 * finished import changes nothing.
 */
export async function cancelImport(ctx: FeatureContext, userId: string, importId: string): Promise<ImportView> {
  const cancelled = await ctx.em.transactional(async (tx) => {
    const row = await firstRow<ImportRow>(
      tx,
      sql`SELECT ${IMPORT_COLUMNS} FROM library_imports i WHERE i.id = ${importId} AND i.user_id = ${userId} FOR UPDATE`,
    );
    if (!row) throw new AppError('not_found', 'No such import of yours.');
    if (row.state === 'completed' || row.state === 'cancelled') return false;
    await run(tx, sql`UPDATE library_imports SET state = 'cancelled', finished_at = now(), updated_at = now() WHERE id = ${importId}`);
    await markUnstartedCancelled(tx, importId);
    return true;
  });
  if (cancelled) {
    announceImport(ctx.em, userId, importId, 'cancelled');
    await ctx.workflows.cancel(importWorkflowId(importId), ctx.log);
  }
  return getImport(ctx, userId, importId);
}

/** The import's saved cards whose preparation never started: failed `import_cancelled`, so that the learner can prepare them later. */
export async function markUnstartedCancelled(tx: Em, importId: string): Promise<void> {
  const error = { code: 'import_cancelled', message: 'The import was cancelled before this card was prepared; prepare it again from the library.' };
  await run(
    tx,
    sql`UPDATE cards c SET enrichment_status = 'failed', enrichment_error = ${JSON.stringify(error)}::jsonb, updated_at = now()
     FROM library_import_rows r
     WHERE r.import_id = ${importId} AND r.card_id = c.id AND r.outcome = 'new' AND r.started_at IS NULL AND c.enrichment_status = 'pending'`,
  );
}

/** Tells the learner's status feed (the library's) that the import moved: ids and a state only. */
export function announceImport(em: Em, userId: string, importId: string, status: ImportState | 'progress'): void {
  announceStatusChange(em, { userId, kind: 'import', id: importId, status });
}
