/**
 * Retention: which tables housekeeping bounds, and how one pass spends its budget. Pure rules;
 * the SQL lives in src/services/retention.ts, the schedule in src/temporal/schedules.ts.
 */

/** The tables a housekeeping pass sweeps, in the order it sweeps them. */
export const RETENTION_TABLES = [
  'sessions',
  'rate_limit_buckets',
  'login_failures',
  'workflow_outbox',
  'page_translation_requests',
  'work_drafts',
  'translation_cache',
  'audio_clips',
  // Added after the others: a pass that started before it never sweeps it (src/workflows/housekeeping.ts).
  'card_encounters',
] as const;

export type RetentionTable = (typeof RETENTION_TABLES)[number];

export const isRetentionTable = (value: unknown): value is RetentionTable =>
  typeof value === 'string' && (RETENTION_TABLES as readonly string[]).includes(value);

/**
 * What one pass may spend on one table: rows per batch (each batch is its own short
 * transaction), rows in all, and time. Whatever is left over, the next pass continues.
 */
export interface SweepBudget {
  batchRows: number;
  maxRows: number;
  maxMs: number;
}

export interface SweepProgress {
  deleted: number;
  elapsedMs: number;
  /** Whether the last batch used its whole limit (true before the first batch): more may wait. */
  lastBatchFull: boolean;
}

/** How many rows the next batch may delete; 0 when the pass is done with this table. */
export function nextBatchLimit(budget: SweepBudget, progress: SweepProgress): number {
  if (!progress.lastBatchFull || progress.elapsedMs >= budget.maxMs) return 0;
  return Math.max(0, Math.min(budget.batchRows, budget.maxRows - progress.deleted));
}

/** One table's share of a pass. */
export interface TableSweep {
  deleted: number;
  batches: number;
  /** Stopped by the budget with rows possibly left: the next pass continues. */
  more: boolean;
}

/** A pass as operators see it: the workflow's result, the log line, and nothing but numbers. */
export interface HousekeepingPass {
  deleted: number;
  tables: Partial<Record<RetentionTable, TableSweep>>;
  /** Tables whose sweep failed after its retries; the next pass tries them again. */
  failed: RetentionTable[];
}

export function summarisePass(tables: Partial<Record<RetentionTable, TableSweep>>, failed: readonly RetentionTable[]): HousekeepingPass {
  const deleted = Object.values(tables).reduce((sum, sweep) => sum + (sweep?.deleted ?? 0), 0);
  return { deleted, tables, failed: [...failed] };
}
