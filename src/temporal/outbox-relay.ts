import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError, type WorkflowIdReusePolicy } from '@temporalio/common';
import type { Logger } from 'pino';
import { listen } from '../db/notifications.ts';
import { withTraceContext } from '../platform/telemetry.ts';
import type { Orm } from '../db/orm.ts';
import { sql, allRows, run } from '../db/sql.ts';
import { OUTBOX_CHANNEL, OUTBOX_COLUMNS, type WorkflowStart } from './workflow-starter.ts';
import { isBusinessOutcome } from '../domain/workflow-outcome.ts';
import { outcomeKey, searchAttributesOf } from './search-attributes.ts';

/**
 * The workflow outbox, starting side: the worker's relay, woken by the NOTIFY a request sends
 * after committing a start (src/temporal/workflow-starter.ts). The only starter of workflows.
 */

/** A recorded start as read back: what a starter's `enqueue` wrote (src/temporal/workflow-starter.ts). */
interface OutboxRow {
  id: string;
  workflow_type: WorkflowStart['workflowType'];
  workflow_id: string;
  task_queue: string;
  args: WorkflowStart['args'];
  user_id: string;
  kind: WorkflowStart['kind'];
  trace_context: Record<string, string> | null;
}
const ROW_COLUMNS = sql`id, ${OUTBOX_COLUMNS}`;

/**
 * A later run under the same workflow id is allowed only after a failed one: a retried dispatch
 * of work that already succeeded is refused by Temporal, while a retry after a failure starts anew.
 * A run that completed with a business outcome (no credits) did not do the work either: a later
 * row starts anew after it too, with AFTER_BUSINESS_OUTCOME.
 */
const REUSE_POLICY: WorkflowIdReusePolicy = 'ALLOW_DUPLICATE_FAILED_ONLY';
const AFTER_BUSINESS_OUTCOME: WorkflowIdReusePolicy = 'ALLOW_DUPLICATE';

type StartOutcome = 'started' | 'after-previous-run';

/**
 * Starts the row's workflow. "Already started" is success only when it is this very row's start
 * (its id is in the memo) or a run that completed its work. A different run still RUNNING is an earlier
 * attempt that has recorded its failure but not closed yet: the new attempt must start after it,
 * so the row stays pending and the relay tries again. A run that closed failing between the
 * refused start and the look at it no longer stands in the way: the start is tried once more.
 */
async function startRow(temporal: Client, row: OutboxRow, eager: boolean): Promise<StartOutcome> {
  let reusePolicy = REUSE_POLICY;
  for (let tries = 1; ; tries++) {
    try {
      await temporal.workflow.start(row.workflow_type, {
        workflowId: row.workflow_id,
        taskQueue: row.task_queue,
        args: row.args,
        memo: { outboxId: String(row.id) },
        workflowIdReusePolicy: reusePolicy,
        typedSearchAttributes: searchAttributesOf(row.user_id, row.kind),
        ...(eager ? { requestEagerStart: true } : {}),
      });
      return 'started';
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      const latest = await temporal.workflow.getHandle(row.workflow_id).describe();
      if (latest.memo?.outboxId === String(row.id)) return 'started';
      if (latest.status.name === 'COMPLETED') {
        if (!isBusinessOutcome(latest.typedSearchAttributes.get(outcomeKey))) return 'started';
        reusePolicy = AFTER_BUSINESS_OUTCOME;
      }
      if (latest.status.name === 'RUNNING' || tries >= 2) return 'after-previous-run';
    }
  }
}

/** How long one Temporal start (with its describe) may take before the row is left for a later pass. */
const START_DEADLINE_MS = 10_000;

type RowOutcome = StartOutcome | { error: string };

async function startWithinDeadline(temporal: Client, row: OutboxRow, eager: boolean): Promise<RowOutcome> {
  try {
    // Inside the recording request's trace: the start, the workflow and its activities join it.
    return await withTraceContext(row.trace_context, () =>
      temporal.connection.withDeadline(Date.now() + START_DEADLINE_MS, () => startRow(temporal, row, eager)),
    );
  } catch (error) {
    return { error: (error as Error).message.slice(0, 500) };
  }
}

/** A relay's claim on rows lapses after this, so rows of a relay that died go to another. */
const RELAY_CLAIM_MS = 3 * START_DEADLINE_MS;

export interface RelayPass {
  /** The task queue whose rows this relay starts: its worker's, so eager starts land on it. */
  taskQueue: string;
  /** Rows one pass claims at most; their starts run concurrently. */
  batch?: number;
  /**
   * Ask for eager starts: the client shares its NativeConnection with a worker of the task queue,
   * so the first workflow task comes back in the start's answer instead of through a poll.
   */
  eager?: boolean;
}

/**
 * One pass of the relay, the only starter of outbox rows. It claims rows with one short statement
 * (SKIP LOCKED: several relays share the work; the claim is a lease in `lease_expires_at`), starts
 * them concurrently outside any transaction, so no row lock is held through a slow or failing call
 * (deleting a card never waits for the relay), and records the outcomes in one statement each.
 */
export async function relayOutboxOnce(orm: Orm, temporal: Client, pass: RelayPass, logger?: Pick<Logger, 'warn'>): Promise<number> {
  const em = orm.em.fork();
  const rows = await allRows<OutboxRow>(
    em,
    sql`UPDATE workflow_outbox SET lease_expires_at = clock_timestamp() + (${RELAY_CLAIM_MS} * interval '1 millisecond')
     WHERE id IN (
       SELECT id FROM workflow_outbox
       WHERE dispatched_at IS NULL AND task_queue = ${pass.taskQueue} AND (lease_expires_at IS NULL OR lease_expires_at < clock_timestamp())
       ORDER BY created_at LIMIT ${pass.batch ?? RELAY_BATCH} FOR UPDATE SKIP LOCKED)
     RETURNING ${ROW_COLUMNS}`,
  );
  if (rows.length === 0) return 0;
  const outcomes = await Promise.all(rows.map(async (row) => ({ row, outcome: await startWithinDeadline(temporal, row, pass.eager ?? false) })));
  const idsWhere = (wanted: (outcome: RowOutcome) => boolean) => outcomes.filter((o) => wanted(o.outcome)).map((o) => o.row.id);
  const started = idsWhere((o) => o === 'started');
  const waiting = idsWhere((o) => o === 'after-previous-run');
  // The real time of the starts, not of a transaction that began before them.
  if (started.length > 0) {
    await run(
      em,
      sql`UPDATE workflow_outbox SET dispatched_at = clock_timestamp(), attempts = attempts + 1, lease_expires_at = NULL
      WHERE id = ANY(${started}::bigint[])`,
    );
  }
  if (waiting.length > 0) {
    await run(
      em,
      sql`UPDATE workflow_outbox SET attempts = attempts + 1, last_error = 'waiting for the previous run to close', lease_expires_at = NULL
      WHERE id = ANY(${waiting}::bigint[])`,
    );
  }
  for (const { row, outcome } of outcomes) {
    if (typeof outcome === 'string') continue;
    logger?.warn({ workflowId: row.workflow_id, err: outcome.error }, 'workflow start failed; the relay tries again');
    await run(em, sql`UPDATE workflow_outbox SET attempts = attempts + 1, last_error = ${outcome.error}, lease_expires_at = NULL WHERE id = ${row.id}`);
  }
  return rows.length;
}

/** Rows one relay pass starts at most; a full pass is followed by another at once. */
const RELAY_BATCH = 200;

/**
 * When the worker had no room for all that waits, the next pass comes this much later: by then the
 * workflows just started have begun their preparations and count in the worker's status.
 */
const ROOM_RECHECK_MS = 50;

export interface OutboxRelayOptions {
  taskQueue: string;
  /** The database the relay LISTENs on for the starters' wake-ups. */
  databaseUrl: string;
  /** A pass this often as well: notifications lost with a connection, rows whose start failed. */
  pollEveryMs: number;
  eager?: boolean;
  /**
   * How many more workflows the relay's worker can take now. A start beyond it goes to Temporal's
   * backlog instead of to the worker eagerly, and a workflow task that waits there and then in a busy
   * worker can time out, which runs its card's preparation (a model call) again.
   */
  workerRoom?: () => number;
}

/**
 * The relay: woken by a starter's `wakeRelay` after every commit that records a start, it starts
 * whatever is pending in batches, no more at once than its worker has room for; passes never
 * overlap, and the notifications that arrive during one make one more.
 */
export function startOutboxRelay(orm: Orm, temporal: Client, options: OutboxRelayOptions, logger?: Pick<Logger, 'warn' | 'error'>) {
  let stopped = false;
  let wanted = false;
  let running: Promise<void> | undefined;
  let recheck: NodeJS.Timeout | undefined;
  /** A pass once the worker has had time to take what was just started. */
  const passSoon = () => {
    recheck ??= setTimeout(() => ((recheck = undefined), wake()), ROOM_RECHECK_MS);
  };
  const passes = async () => {
    while (wanted && !stopped) {
      wanted = false;
      const batch = Math.min(RELAY_BATCH, options.workerRoom?.() ?? RELAY_BATCH);
      if (batch <= 0) {
        passSoon();
        break;
      }
      try {
        const claimed = await relayOutboxOnce(orm, temporal, { taskQueue: options.taskQueue, batch, ...(options.eager ? { eager: true } : {}) }, logger);
        if (claimed === RELAY_BATCH) wanted = true;
        else if (claimed === batch) passSoon();
      } catch (error) {
        logger?.error({ err: error }, 'outbox relay pass failed');
      }
    }
  };
  const wake = () => {
    wanted = true;
    // Cleared when the passes settle, never inside them: passes that end before their first await (no room) had
    // cleared it before `running` was even assigned, which then kept a settled promise, and the relay never passed again.
    running ??= passes().finally(() => (running = undefined));
  };
  const stopListening = listen(options.databaseUrl, OUTBOX_CHANNEL, () => wake(), logger);
  const poll = setInterval(wake, options.pollEveryMs);
  return async () => {
    stopped = true;
    clearInterval(poll);
    clearTimeout(recheck);
    await stopListening();
    await running;
  };
}
