/**
 * Housekeeping's deletes. Each table is swept oldest first in batches; each batch is one short
 * transaction that locks its rows with SKIP LOCKED, so a sweep never waits on a request, never
 * holds many locks for long, and two passes running at once share the work instead of fighting.
 */
import type { Config } from '../config.ts';
import type { Em } from '../db/orm.ts';
import { sql, allRows, firstRow, run, type Sql } from '../db/sql.ts';
import { FAILURES_FORGOTTEN_AFTER_MS } from '../domain/login-backoff.ts';
import { nextBatchLimit, type RetentionTable, type SweepBudget, type TableSweep } from '../domain/retention.ts';
import { counter } from '../platform/metrics.ts';

export interface RetentionPolicy {
  outboxDays: number;
  idempotencyHours: number;
  translationCacheDays: number;
  translationCacheMaxRows: number;
  unlinkedAudioDays: number;
  encounterDays: number;
}

export function retentionPolicy(config: Pick<Config, 'retention'>): RetentionPolicy {
  return { ...config.retention };
}

export function sweepBudget(config: Pick<Config, 'housekeeping'>): SweepBudget {
  const h = config.housekeeping;
  return { batchRows: h.batchRows, maxRows: h.maxRowsPerTable, maxMs: h.maxSecondsPerTable * 1000 };
}

const rowsDeleted = counter('lcs_retention_rows_deleted_total', 'Rows deleted by housekeeping, per table', ['table']);

/** One batch: deletes at most `limit` rows in the caller's transaction. */
type Batch = (tx: Em, limit: number) => Promise<{ deleted: number; full: boolean }>;

/** The rows a table's batches take, oldest first: its sweep's whole rule in one place. */
interface OldestFirst {
  /** Columns that identify a row. */
  key: Sql;
  /** Which rows may go. */
  where: Sql;
  order: Sql;
}

const oldestFirst: Record<Exclude<RetentionTable, 'translation_cache' | 'audio_clips'>, (p: RetentionPolicy) => OldestFirst> = {
  sessions: () => ({ key: sql`id_hash`, where: sql`expires_at < now()`, order: sql`expires_at` }),
  // A bucket whose theoretical arrival time has passed is full: to every limit, whatever its size,
  // that is what a missing row means too (src/services/rate-limit-store.ts).
  rate_limit_buckets: () => ({ key: sql`bucket`, where: sql`tat < now()`, order: sql`tat` }),
  // Failures this old no longer count (src/domain/login-backoff.ts): the row means what its absence does.
  login_failures: () => ({
    key: sql`key`,
    where: sql`last_failure_at < now() - ${FAILURES_FORGOTTEN_AFTER_MS} * interval '1 millisecond'`,
    order: sql`last_failure_at`,
  }),
  // Undispatched rows are work not yet started: never deleted, whatever their age.
  workflow_outbox: (p) => ({ key: sql`id`, where: sql`dispatched_at < now() - ${p.outboxDays} * interval '1 day'`, order: sql`dispatched_at` }),
  // Finished records end their request_id's replay window; a claim this old was abandoned long ago.
  page_translation_requests: (p) => ({
    key: sql`user_id, request_id`,
    where: sql`coalesce(completed_at, claimed_at) < now() - ${p.idempotencyHours} * interval '1 hour'`,
    order: sql`coalesce(completed_at, claimed_at)`,
  }),
  work_drafts: (p) => ({
    key: sql`user_id, idempotency_key`,
    where: sql`created_at < now() - ${p.idempotencyHours} * interval '1 hour'`,
    order: sql`created_at`,
  }),
  // The card keeps the totals (met_count, last_met_at: what the library's order and Replay's "met
  // since last review" read); the rows only serve the card page's recent list and a retried
  // batch's deduplication, which needs them for the 7 days a batch may be late.
  card_encounters: (p) => ({
    key: sql`card_id, page_view_id`,
    where: sql`recorded_at < now() - ${p.encounterDays} * interval '1 day'`,
    order: sql`recorded_at`,
  }),
};

/** The query that picks a batch's rows (also what the plan test explains). */
export function candidateSql(table: string, rule: OldestFirst, limit: number): Sql {
  return sql`SELECT ${rule.key} FROM ${sql.table(table)} WHERE ${rule.where} ORDER BY ${rule.order} LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
}

function deleteOldest(table: string, rule: OldestFirst): Batch {
  return async (tx, limit) => {
    const row = await firstRow<{ n: number }>(
      tx,
      sql`WITH gone AS (DELETE FROM ${sql.table(table)} WHERE (${rule.key}) IN (${candidateSql(table, rule, limit)}) RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
    );
    return { deleted: row!.n, full: row!.n === limit };
  };
}

/**
 * The translation cache: answers older than the age bound, and beyond the row cap the least
 * recently created, go. The cap's boundary is found once per pass (an index-only walk of at most
 * `translationCacheMaxRows` answers); rows written during the pass are newer than it.
 */
export async function translationCacheCutoff(em: Em, p: RetentionPolicy): Promise<string> {
  // As text: a JavaScript Date would drop the microseconds the cut falls between.
  const row = await firstRow<{ cutoff: string }>(
    em,
    sql`SELECT greatest(now() - ${p.translationCacheDays} * interval '1 day',
       (SELECT created_at + interval '1 microsecond' FROM translation_cache
         ORDER BY created_at DESC OFFSET ${p.translationCacheMaxRows} LIMIT 1))::text AS cutoff`,
  );
  return row!.cutoff;
}

/**
 * The cache's two kinds of rows, older than the cutoff (translation-cache.ts): answers of calls
 * that carried one text have no context and go by themselves; a call that carried several texts
 * goes as its context, whose answers (written with it, in one statement) go by cascade.
 */
export function translationCacheRules(cutoff: string): { alone: OldestFirst; calls: OldestFirst } {
  return {
    alone: { key: sql`id`, where: sql`context_id IS NULL AND created_at < ${cutoff}::timestamptz`, order: sql`created_at` },
    calls: { key: sql`id`, where: sql`created_at < ${cutoff}::timestamptz`, order: sql`created_at` },
  };
}

/** One batch of each kind; what it counts is cache rows (answers), those of the contexts included. */
function translationCache(cutoff: string): Batch {
  const rules = translationCacheRules(cutoff);
  return async (tx, limit) => {
    const alone = await deleteOldest('translation_cache', rules.alone)(tx, limit);
    const calls = await firstRow<{ contexts: number; answers: number }>(
      tx,
      sql`WITH doomed AS (${candidateSql('translation_contexts', rules.calls, limit)}),
       answers AS (SELECT count(*)::int AS n FROM translation_cache WHERE context_id IN (SELECT id FROM doomed)),
       gone AS (DELETE FROM translation_contexts WHERE id IN (SELECT id FROM doomed) RETURNING 1)
       SELECT (SELECT count(*) FROM gone)::int AS contexts, (SELECT n FROM answers) AS answers`,
    );
    return { deleted: alone.deleted + calls!.answers, full: alone.full || calls!.contexts === limit };
  };
}

/**
 * Audio clips without a link (no card or sentence of anyone's) for the whole grace time: the
 * trigger on audio_requests logs each unlink in audio_unlinks. A clip still generating is never
 * taken; one linked again, or unlinked again more recently, stays. Each clip is locked before it
 * is checked, in a statement of its own, so a request that links it meanwhile either committed
 * first (and is seen) or waits for this batch (and makes the clip anew).
 */
export function audioSweepSql(graceDays: number, limit: number): Sql<{ audio_id: string }> {
  return sql`SELECT u.audio_id FROM audio_unlinks u
          WHERE u.unlinked_at < now() - ${graceDays} * interval '1 day'
            AND NOT EXISTS (SELECT 1 FROM audio_clips c WHERE c.id = u.audio_id AND c.status = 'pending')
          ORDER BY u.unlinked_at LIMIT ${limit}`;
}

function unlinkedAudio(p: RetentionPolicy): Batch {
  const graceDays = p.unlinkedAudioDays;
  return async (tx, limit) => {
    const due = await allRows(tx, audioSweepSql(graceDays, limit));
    const ids = [...new Set(due.map((r) => r.audio_id))];
    if (ids.length === 0) return { deleted: 0, full: false };
    const locked = (
      await allRows<{ id: string }>(tx, sql`SELECT id FROM audio_clips WHERE id = ANY(${ids}::uuid[]) AND status <> 'pending' FOR UPDATE SKIP LOCKED`)
    ).map((r) => r.id);
    let deleted = 0;
    if (locked.length > 0) {
      const gone = await firstRow<{ n: number }>(
        tx,
        sql`WITH gone AS (
           DELETE FROM audio_clips c WHERE c.id = ANY(${locked}::uuid[])
             AND NOT EXISTS (SELECT 1 FROM audio_requests r WHERE r.audio_id = c.id)
             AND NOT EXISTS (SELECT 1 FROM audio_unlinks u WHERE u.audio_id = c.id AND u.unlinked_at >= now() - ${graceDays} * interval '1 day')
           RETURNING 1)
         SELECT count(*)::int AS n FROM gone`,
      );
      deleted = gone!.n;
    }
    // The old entries are done with once their clip was checked here or no longer exists; a clip
    // someone else held locked keeps them for the next batch or pass.
    const forgotten = await firstRow<{ n: number }>(
      tx,
      sql`WITH gone AS (
         DELETE FROM audio_unlinks u WHERE u.audio_id = ANY(${ids}::uuid[]) AND u.unlinked_at < now() - ${graceDays} * interval '1 day'
           AND (u.audio_id = ANY (${locked}::uuid[]) OR NOT EXISTS (SELECT 1 FROM audio_clips c WHERE c.id = u.audio_id))
         RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
    );
    return { deleted, full: due.length === limit && forgotten!.n > 0 };
  };
}

async function batchFor(em: Em, table: RetentionTable, policy: RetentionPolicy): Promise<Batch> {
  if (table === 'audio_clips') return unlinkedAudio(policy);
  if (table === 'translation_cache') return translationCache(await translationCacheCutoff(em, policy));
  return deleteOldest(table, oldestFirst[table](policy));
}

/** The rule a table's batches follow (for the plan test); audio's is `audioSweepSql`. */
export function oldestFirstRule(table: keyof typeof oldestFirst, policy: RetentionPolicy): OldestFirst {
  return oldestFirst[table](policy);
}

/** A statement that waits this long is stuck behind something; the next pass tries again. */
const BATCH_STATEMENT_TIMEOUT = '15s';

/** Sweeps one table within the budget: batches until it is clean or the budget is spent, each in a transaction of its own. */
export async function sweepTable(em: Em, table: RetentionTable, policy: RetentionPolicy, budget: SweepBudget): Promise<TableSweep> {
  const batch = await batchFor(em, table, policy);
  const started = Date.now();
  const sweep: TableSweep = { deleted: 0, batches: 0, more: false };
  let lastBatchFull = true;
  for (;;) {
    const limit = nextBatchLimit(budget, { deleted: sweep.deleted, elapsedMs: Date.now() - started, lastBatchFull });
    if (limit === 0) break;
    const result = await em.transactional(async (tx) => {
      await run(tx, sql`SET LOCAL statement_timeout = ${sql.lit(BATCH_STATEMENT_TIMEOUT)}`);
      return batch(tx, limit);
    });
    sweep.batches += 1;
    sweep.deleted += result.deleted;
    lastBatchFull = result.full;
    rowsDeleted.inc({ table }, result.deleted);
  }
  sweep.more = lastBatchFull;
  return sweep;
}
