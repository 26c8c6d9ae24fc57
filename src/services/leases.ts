import { randomUUID } from 'node:crypto';
import type { Em } from '../db/orm.ts';
import { firstRow, run, sql, type Sql } from '../db/sql.ts';

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
  table: 'sentences' | 'page_translation_requests' | UserLeaseTable;
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
function renewLease(em: Em, row: LeasedRow, logger?: LeaseLogger): () => void {
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

/** Tables of one lease per user (user_id, holder, lease_expires_at): the user's one export (0019), the user's one import file being read (0029). */
type UserLeaseTable = 'export_leases' | 'import_read_leases';

/**
 * The user's one lease of `table`, whichever API process asks: taken when there is none or the
 * last one lapsed (its process died), renewed until let go, then deleted. Returns how to let it
 * go (once; later calls are the same promise), or null when another holder has it.
 */
export async function claimUserLease(em: Em, table: UserLeaseTable, userId: string, logger: LeaseLogger): Promise<(() => Promise<void>) | null> {
  const holder = randomUUID();
  const claimed = await firstRow<{ holder: string }>(
    em,
    sql`INSERT INTO ${sql.table(table)} (user_id, holder, lease_expires_at) VALUES (${userId}, ${holder}, ${leaseExpirySql(LEASE.durationMs)})
     ON CONFLICT (user_id) DO UPDATE SET holder = excluded.holder, lease_expires_at = excluded.lease_expires_at
     WHERE ${sql.table(table)}.lease_expires_at < clock_timestamp()
     RETURNING holder`,
  );
  if (!claimed) return null;
  const mine = sql`user_id = ${userId} AND holder = ${holder}`;
  const stopRenewing = renewLease(em, { table, where: mine }, logger);
  let released: Promise<void> | undefined;
  return () =>
    (released ??= (async () => {
      stopRenewing();
      await run(em.fork(), sql`DELETE FROM ${sql.table(table)} WHERE ${mine}`).catch((error: unknown) =>
        logger.warn({ table, err: (error as Error).name }, 'lease release failed; it lapses by itself'),
      );
    })());
}
