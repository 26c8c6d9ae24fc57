import type { Orm } from '../db/orm.ts';
import { sql, allRows } from '../db/sql.ts';
import { gauge } from '../platform/metrics.ts';

/**
 * The outbox's backlog, read from the database when Prometheus scrapes (not kept in memory: every
 * API process records starts, and only the database sees them all). One short query per scrape
 * on the pending rows' partial index (workflow_outbox_pending_idx), shared by both gauges.
 */

/** Databases of the relays running in this process; any one of them answers (they are the same database). */
const watched = new Set<Orm>();

interface Backlog {
  pending: number;
  oldestSeconds: number;
}
let reading: { at: number; backlog: Promise<Backlog | null> } | undefined;
/** Both gauges are collected in one scrape: they share the reading made within this long. */
const READING_REUSE_MS = 1_000;

function readBacklog(): Promise<Backlog | null> {
  const orm = [...watched].at(-1);
  if (!orm) return Promise.resolve(null);
  if (reading && Date.now() - reading.at < READING_REUSE_MS) return reading.backlog;
  const backlog = allRows<{ pending: number; oldest_s: number | null }>(
    orm.em.fork(),
    sql`SELECT count(*)::int AS pending, extract(epoch FROM clock_timestamp() - min(created_at))::float8 AS oldest_s
     FROM workflow_outbox WHERE dispatched_at IS NULL`,
  ).then(
    ([row]) => ({ pending: row!.pending, oldestSeconds: row!.oldest_s ?? 0 }),
    () => null,
  ); // a database away costs the scrape these two figures only
  reading = { at: Date.now(), backlog };
  return backlog;
}

gauge('lcs_outbox_pending', 'Workflow starts recorded in the outbox and not yet started on Temporal', [], async function () {
  const backlog = await readBacklog();
  if (backlog) this.set(backlog.pending);
});
gauge('lcs_outbox_oldest_pending_age_seconds', 'Age of the oldest workflow start still waiting in the outbox (0 when none waits)', [], async function () {
  const backlog = await readBacklog();
  if (backlog) this.set(backlog.oldestSeconds);
});

/** Reports this database's outbox at scrapes until the returned function is called. */
export function watchOutbox(orm: Orm): () => void {
  watched.add(orm);
  return () => void watched.delete(orm);
}
