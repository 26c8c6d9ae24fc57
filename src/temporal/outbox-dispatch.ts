import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError, type WorkflowIdReusePolicy } from '@temporalio/common';
import type { Logger } from 'pino';
import type { Em, Orm } from '../db/orm.ts';
import { OUTBOX_COLUMNS, type WorkflowStart } from './outbox.ts';
import { searchAttributesOf } from './search-attributes.ts';

/**
 * The workflow outbox, starting side: the fast path right after a request's commit, and the
 * worker's relay for whatever that missed.
 */

/** A recorded start as read back: what `outboxStart` wrote (see src/temporal/outbox.ts). */
interface OutboxRow {
  id: string;
  workflow_type: WorkflowStart['workflowType'];
  workflow_id: string;
  task_queue: string;
  args: WorkflowStart['args'];
  user_id: string;
  kind: WorkflowStart['kind'];
}
const ROW_COLUMNS = `id, ${OUTBOX_COLUMNS}`;

/**
 * A later run under the same workflow id is allowed only after a failed one: a retried dispatch
 * of work that already succeeded is refused by Temporal, while a refresh after a failure starts anew.
 */
const REUSE_POLICY: WorkflowIdReusePolicy = 'ALLOW_DUPLICATE_FAILED_ONLY';

type StartOutcome = 'started' | 'after-previous-run';

/**
 * Starts the row's workflow. "Already started" is success only when it is this very row's start
 * (its id is in the memo) or a run that completed. A different run still RUNNING is an earlier
 * attempt that has recorded its failure but not closed yet: the new attempt must start after it,
 * so the row stays pending and the relay tries again. A run that closed failing between the
 * refused start and the look at it no longer stands in the way: the start is tried once more.
 */
async function startRow(temporal: Client, row: OutboxRow): Promise<StartOutcome> {
  for (let tries = 1; ; tries++) {
    try {
      await temporal.workflow.start(row.workflow_type, {
        workflowId: row.workflow_id,
        taskQueue: row.task_queue,
        args: row.args,
        memo: { outboxId: String(row.id) },
        workflowIdReusePolicy: REUSE_POLICY,
        typedSearchAttributes: searchAttributesOf(row.user_id, row.kind),
      });
      return 'started';
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      const latest = await temporal.workflow.getHandle(row.workflow_id).describe();
      if (latest.memo?.outboxId === String(row.id) || latest.status.name === 'COMPLETED') return 'started';
      if (latest.status.name === 'RUNNING' || tries >= 2) return 'after-previous-run';
    }
  }
}

/**
 * Starts the given outbox rows now (the fast path, right after the request's commit). Failures
 * are left for the relay; the caller's answer never depends on Temporal being up.
 */
export async function dispatchOutbox(orm: Orm, temporal: Client, ids: string[], logger?: Pick<Logger, 'warn'>): Promise<void> {
  if (ids.length === 0) return;
  const em = orm.em.fork();
  const rows = await em.execute<OutboxRow[]>(
    `SELECT ${ROW_COLUMNS} FROM workflow_outbox WHERE id IN (?) AND dispatched_at IS NULL`,
    [ids], // MikroORM expands an array parameter into a list: `IN (?)`, not `= ANY(?)`.
  );
  await Promise.all(rows.map((row) => dispatchRow(em, temporal, row, logger)));
}

/** How long one Temporal start (with its describe) may take before the row is left for a later pass. */
const START_DEADLINE_MS = 10_000;

async function dispatchRow(em: Em, temporal: Client, row: OutboxRow, logger?: Pick<Logger, 'warn'>) {
  try {
    const outcome = await temporal.connection.withDeadline(Date.now() + START_DEADLINE_MS, () => startRow(temporal, row));
    // The real time of the start, not of a transaction that began before the call.
    if (outcome === 'started') {
      await em.execute(`UPDATE workflow_outbox SET dispatched_at = clock_timestamp(), attempts = attempts + 1, lease_expires_at = NULL WHERE id = ?`, [row.id]);
    } else {
      await em.execute(`UPDATE workflow_outbox SET attempts = attempts + 1, last_error = 'waiting for the previous run to close', lease_expires_at = NULL WHERE id = ?`, [row.id]);
    }
  } catch (error) {
    logger?.warn({ workflowId: row.workflow_id, err: (error as Error).message }, 'workflow start deferred to the outbox relay');
    await em.execute(`UPDATE workflow_outbox SET attempts = attempts + 1, last_error = ?, lease_expires_at = NULL WHERE id = ?`, [(error as Error).message.slice(0, 500), row.id]);
  }
}

/**
 * The fast path after a request's commit, without waiting: the answer never depends on Temporal,
 * and whatever fails here is the relay's to start a few seconds later.
 */
export function dispatchInBackground(orm: Orm, temporal: Client, ids: string[], logger?: Pick<Logger, 'warn'>): void {
  dispatchOutbox(orm, temporal, ids, logger).catch((error: unknown) => {
    logger?.warn({ err: (error as Error).message }, 'workflow start deferred to the outbox relay');
  });
}

/** A relay's claim on rows lapses after this, so rows of a relay that died go to another. */
const RELAY_CLAIM_MS = 3 * START_DEADLINE_MS;

/**
 * The relay: starts what the fast path did not (a crash after commit, Temporal briefly down).
 * It claims rows with one short statement (SKIP LOCKED: several relays share the work; the claim
 * is a lease in `lease_expires_at`) and calls Temporal outside any transaction, so no row lock is
 * held through a slow or failing call: deleting a card never waits for the relay.
 */
export async function relayOutboxOnce(orm: Orm, temporal: Client, options: { staleAfterMs: number; batch?: number }, logger?: Pick<Logger, 'warn'>): Promise<number> {
  const em = orm.em.fork();
  const rows = await em.execute<OutboxRow[]>(
    `UPDATE workflow_outbox SET lease_expires_at = clock_timestamp() + (? * interval '1 millisecond')
     WHERE id IN (
       SELECT id FROM workflow_outbox
       WHERE dispatched_at IS NULL AND created_at < now() - (? * interval '1 millisecond')
         AND (lease_expires_at IS NULL OR lease_expires_at < clock_timestamp())
       ORDER BY created_at LIMIT ? FOR UPDATE SKIP LOCKED)
     RETURNING ${ROW_COLUMNS}`,
    [RELAY_CLAIM_MS, options.staleAfterMs, options.batch ?? 200],
  );
  await Promise.all(rows.map((row) => dispatchRow(em, temporal, row, logger)));
  return rows.length;
}

export function startOutboxRelay(orm: Orm, temporal: Client, options: { intervalMs: number; staleAfterMs: number }, logger?: Pick<Logger, 'warn' | 'error'>) {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = relayOutboxOnce(orm, temporal, { staleAfterMs: options.staleAfterMs }, logger)
      .catch((error) => logger?.error({ err: error }, 'outbox relay pass failed'))
      .finally(() => { if (!stopped) timer = setTimeout(tick, options.intervalMs); });
  };
  timer = setTimeout(tick, options.intervalMs);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
