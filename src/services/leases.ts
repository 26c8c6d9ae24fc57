import type { Em } from '../db/orm.ts';
import { run, sql, type Sql } from '../db/sql.ts';

/**
 * A short lease on a row that one request works on: a sync sentence being translated, a claimed
 * page-translation `request_id`. The owner renews it while it works; when its process dies the
 * renewals stop, and once the lease has lapsed a retry of the same request may take the row over,
 * within seconds instead of after every model timeout. The owner's final writes stay conditional
 * (attempt, claim token), so an owner whose lease was taken over stores and charges nothing.
 */
export const LEASE = { durationMs: 8_000, renewEveryMs: 2_000 } as const;

/** The `lease_expires_at` of a lease of `durationMs` (LEASE.durationMs; null: no lease) taken or renewed now. */
export const leaseExpirySql = (durationMs: number | null): Sql => sql`clock_timestamp() + (${durationMs} * interval '1 millisecond')`;

/** The rows a lease may cover; `where` picks the owner's row. */
export interface LeasedRow {
  table: 'sentences' | 'page_translation_requests' | 'export_leases';
  where: Sql;
}

/**
 * Runs `work` while renewing the row's lease, each renewal on a fork of `em` (beside whatever the
 * work runs). A renewal that fails (the database briefly away) is logged and tried again at the
 * next turn; renewals never overlap.
 */
export async function whileLeased<T>(em: Em, row: LeasedRow, work: () => Promise<T>, logger?: LeaseLogger): Promise<T> {
  const stop = renewLease(em, row, logger);
  try {
    return await work();
  } finally {
    stop();
  }
}

type LeaseLogger = { warn(fields: object, message: string): void };

/** Renews the row's lease every LEASE.renewEveryMs until the returned function is called (for work that is not one promise, e.g. a stream). */
export function renewLease(em: Em, row: LeasedRow, logger?: LeaseLogger): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const renew = async () => {
    try {
      await run(em.fork(), sql`UPDATE ${sql.table(row.table)} SET lease_expires_at = ${leaseExpirySql(LEASE.durationMs)} WHERE ${row.where}`);
    } catch (error) {
      logger?.warn({ table: row.table, err: (error as Error).name }, 'lease renewal failed');
    } finally {
      if (!stopped) timer = setTimeout(() => void renew(), LEASE.renewEveryMs);
    }
  };
  timer = setTimeout(() => void renew(), LEASE.renewEveryMs);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
