import type { Client } from '@temporalio/client';
import { defineSearchAttributeKey, SearchAttributeType, WorkflowExecutionAlreadyStartedError, type WorkflowIdReusePolicy } from '@temporalio/common';
import type { Logger } from 'pino';
import type { Em, Orm } from '../db/orm.ts';
import type { WorkflowKind } from '../workflows/constants.ts';

export const userIdKey = defineSearchAttributeKey('LcsUserId', SearchAttributeType.KEYWORD);
export const kindKey = defineSearchAttributeKey('LcsKind', SearchAttributeType.KEYWORD);

export interface WorkflowStart {
  /** The exported workflow function's name. */
  workflowType: string;
  workflowId: string;
  taskQueue: string;
  /** Ids only: Temporal's history must hold no user content. */
  args: unknown[];
  userId: string;
  kind: WorkflowKind;
}

/** The outbox row's columns and, in the same order, a start's values for them. */
export const OUTBOX_COLUMNS = 'workflow_type, workflow_id, task_queue, args, user_id, kind';
export const outboxValues = (start: WorkflowStart) =>
  [start.workflowType, start.workflowId, start.taskQueue, JSON.stringify(start.args), start.userId, start.kind];

/** Records a workflow to start; call inside the transaction that creates its subject. */
export async function enqueueWorkflow(tx: Em, start: WorkflowStart): Promise<string> {
  const [row] = await tx.execute<{ id: string }[]>(
    `INSERT INTO workflow_outbox (${OUTBOX_COLUMNS}) VALUES (?, ?, ?, ?::jsonb, ?, ?) RETURNING id`,
    outboxValues(start),
  );
  return String(row!.id);
}

interface OutboxRow { id: string; workflow_type: string; workflow_id: string; task_queue: string; args: unknown[]; user_id: string; kind: string }

/**
 * A later run under the same workflow id is allowed only after a failed one: a retried dispatch
 * of work that already succeeded is refused by Temporal, while a refresh after a failure starts anew.
 */
const REUSE_POLICY: WorkflowIdReusePolicy = 'ALLOW_DUPLICATE_FAILED_ONLY';

type StartOutcome = 'started' | 'after-previous-run';

/**
 * Starts the row's workflow. "Already started" is success only when it is this very row's start
 * (its id is in the memo) or a run that closed without failing. A different run still RUNNING is
 * an earlier attempt that has recorded its failure but not closed yet: the new attempt must start
 * after it, so the row stays pending and the relay tries again.
 */
async function startRow(temporal: Client, row: OutboxRow): Promise<StartOutcome> {
  try {
    await temporal.workflow.start(row.workflow_type, {
      workflowId: row.workflow_id,
      taskQueue: row.task_queue,
      args: row.args,
      memo: { outboxId: String(row.id) },
      workflowIdReusePolicy: REUSE_POLICY,
      typedSearchAttributes: [
        { key: userIdKey, value: row.user_id },
        { key: kindKey, value: row.kind },
      ],
    });
    return 'started';
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    const latest = await temporal.workflow.getHandle(row.workflow_id).describe();
    if (latest.memo?.outboxId === String(row.id)) return 'started';
    return latest.status.name === 'RUNNING' ? 'after-previous-run' : 'started';
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
    `SELECT id, workflow_type, workflow_id, task_queue, args, user_id, kind FROM workflow_outbox WHERE id IN (?) AND dispatched_at IS NULL`,
    [ids], // MikroORM expands an array parameter into a list: `IN (?)`, not `= ANY(?)`.
  );
  await Promise.all(rows.map((row) => dispatchRow(em, temporal, row, logger)));
}

async function dispatchRow(em: Em, temporal: Client, row: OutboxRow, logger?: Pick<Logger, 'warn'>) {
  try {
    if ((await startRow(temporal, row)) === 'started') {
      await em.execute(`UPDATE workflow_outbox SET dispatched_at = now(), attempts = attempts + 1 WHERE id = ?`, [row.id]);
    } else {
      await em.execute(`UPDATE workflow_outbox SET attempts = attempts + 1, last_error = 'waiting for the previous run to close' WHERE id = ?`, [row.id]);
    }
  } catch (error) {
    logger?.warn({ workflowId: row.workflow_id, err: (error as Error).message }, 'workflow start deferred to the outbox relay');
    await em.execute(`UPDATE workflow_outbox SET attempts = attempts + 1, last_error = ? WHERE id = ?`, [(error as Error).message.slice(0, 500), row.id]);
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

/** Drops undispatched starts of a subject that no longer exists (e.g. a deleted card). */
export async function discardPendingStarts(tx: Em, workflowId: string): Promise<void> {
  await tx.execute(`DELETE FROM workflow_outbox WHERE workflow_id = ? AND dispatched_at IS NULL`, [workflowId]);
}

/**
 * The relay: starts what the fast path did not (a crash after commit, Temporal briefly down).
 * Several relays may run side by side; SKIP LOCKED gives each row to one of them.
 */
export async function relayOutboxOnce(orm: Orm, temporal: Client, options: { staleAfterMs: number; batch?: number }, logger?: Pick<Logger, 'warn'>): Promise<number> {
  return orm.em.fork().transactional(async (tx) => {
    const rows = await tx.execute<OutboxRow[]>(
      `SELECT id, workflow_type, workflow_id, task_queue, args, user_id, kind FROM workflow_outbox
       WHERE dispatched_at IS NULL AND created_at < now() - (? * interval '1 millisecond')
       ORDER BY created_at LIMIT ? FOR UPDATE SKIP LOCKED`,
      [options.staleAfterMs, options.batch ?? 200],
    );
    await Promise.all(rows.map((row) => dispatchRow(tx, temporal, row, logger)));
    return rows.length;
  });
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
