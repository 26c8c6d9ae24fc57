import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError, type Workflow } from '@temporalio/common';
import type { Em, Orm } from '../db/orm.ts';
import { sql, run, type Sql } from '../db/sql.ts';
import { activeTraceContext } from '../platform/telemetry.ts';
import type * as workflows from '../workflows/index.ts';
import type { WorkflowKind } from './workflow-ids.ts';

/**
 * How a feature starts, wakes and cancels workflows: the one module of src/temporal a feature uses.
 *
 * A request never calls Temporal to start work. It writes its data and, in the same transaction,
 * an outbox row naming the workflow to start (`enqueue`); after the commit it wakes the worker's
 * relay (`wakeRelay`; the relay is src/temporal/outbox-relay.ts), which starts the row. Starting
 * the workflow inside the transaction could start work for a subject that a rollback then removes;
 * starting it after the commit without a record loses it when the process dies in between (a card
 * would stay pending forever). The outbox row survives that crash, and the relay starts it.
 */

type Workflows = typeof workflows;
/** Every workflow the worker runs, by type name: the exported function's name, as Temporal has it. */
type WorkflowType = { [Name in keyof Workflows]: Workflows[Name] extends Workflow ? Name : never }[keyof Workflows];
/** The arguments of the workflow type `T`: its function's own parameters. */
type WorkflowArgs<T extends WorkflowType> = T extends WorkflowType ? (Workflows[T] extends (...args: infer A) => unknown ? A : never) : never;

export interface WorkflowStart {
  workflowType: WorkflowType;
  workflowId: string;
  taskQueue: string;
  /** The arguments of one of the workflows (ids only: Temporal's history must hold no user content). */
  args: WorkflowArgs<WorkflowType>;
  userId: string;
  kind: WorkflowKind;
}

/** Whose work a start is: its workflow id (src/temporal/workflow-ids.ts), its user, its kind. */
type StartSubject = Pick<WorkflowStart, 'workflowId' | 'userId' | 'kind'>;

/** Where a failed cancellation is told to the operator: ids only. */
interface CancelLog {
  warn(fields: object, message: string): void;
}

export interface WorkflowStarter {
  /**
   * A start of the workflow type `type` with `args`, checked by the compiler against that
   * workflow's own parameters, on this process's task queue. Nothing is written yet.
   */
  start<T extends WorkflowType>(type: T, args: WorkflowArgs<T>, subject: StartSubject): WorkflowStart;
  /** Records `start` (its outbox row) in the caller's transaction, the one that creates its subject. */
  enqueue(tx: Em, start: WorkflowStart): Promise<void>;
  /** Drops the undispatched starts of `workflowId`, whose subject the caller's transaction deletes. */
  discardPending(tx: Em, workflowId: string): Promise<void>;
  /** After the commit that recorded starts: wakes the relay, without waiting. */
  wakeRelay(): void;
  /**
   * Cancels the running workflow `workflowId`, if any; its absence is not an error. Bounded: with
   * Temporal unreachable the client retries for tens of seconds, and the caller's change (already
   * committed) must not wait for that, so a cancellation that does not go through is logged.
   */
  cancel(workflowId: string, log?: CancelLog): Promise<void>;
}

/**
 * The outbox row's columns and, in the same order, a start's values for them: the start, and the
 * trace of the request that recorded it (null when tracing is off).
 */
export const OUTBOX_COLUMNS = sql`workflow_type, workflow_id, task_queue, args, user_id, kind, trace_context`;
const outboxValues = (start: WorkflowStart) => {
  const trace = activeTraceContext();
  return sql`${start.workflowType}, ${start.workflowId}, ${start.taskQueue}, ${JSON.stringify(start.args)}::jsonb, ${start.userId},
    ${start.kind}, ${trace && JSON.stringify(trace)}::jsonb`;
};

/**
 * The statement that records `start` once for each row of `source` (a CTE of the caller's own
 * statement): for a start written in the same statement as its subject, as a capture does.
 */
export const enqueueFrom = (start: WorkflowStart, source: Sql): Sql =>
  sql`INSERT INTO workflow_outbox (${OUTBOX_COLUMNS}) SELECT ${outboxValues(start)} FROM ${source}`;

/** The channel the relay LISTENs on. */
export const OUTBOX_CHANNEL = 'workflow_outbox';

/**
 * Wakes the relays after a commit that recorded a start, without waiting. Sent on its own and not
 * inside the recording transaction: a transaction that notifies holds a database-wide lock
 * through its commit's WAL flush, which made every capture wait for every other (measured: the
 * capture's main wait under load). A notification of its own writes no WAL. While one is on its
 * way the process sends at most one more, since a relay pass takes every pending row anyway. A
 * wake-up lost to a crash costs its row the relay's next poll.
 */
function wakeOutboxRelay(orm: Orm): void {
  const state = (wakers.get(orm) ?? wakers.set(orm, { sending: false, again: false }).get(orm))!;
  if (state.sending) {
    state.again = true;
    return;
  }
  state.sending = true;
  run(orm.em.fork(), sql`SELECT pg_notify(${OUTBOX_CHANNEL}, '')`)
    .catch(() => {}) // the relay's poll covers it
    .finally(() => {
      state.sending = false;
      if (state.again) {
        state.again = false;
        wakeOutboxRelay(orm);
      }
    });
}
/** Per database, so that every starter of a process shares one wake-up in flight. */
const wakers = new WeakMap<Orm, { sending: boolean; again: boolean }>();

/** How long a cancellation waits for Temporal to take it before the caller goes on anyway. */
const CANCEL_DEADLINE_MS = 2_000;

/**
 * A process's starter: its database (outbox rows, wake-ups), its Temporal client (cancellations;
 * null in a process that never cancels, such as an operator command that only reads) and its
 * task queue (the relay of that queue's workers starts the rows).
 */
export function workflowStarter(deps: { orm: Orm; temporal: Client | null; taskQueue: string }): WorkflowStarter {
  return {
    start: (type, args, subject) => ({ workflowType: type, args, taskQueue: deps.taskQueue, ...subject }),
    async enqueue(tx, start) {
      await run(tx, sql`INSERT INTO workflow_outbox (${OUTBOX_COLUMNS}) VALUES (${outboxValues(start)})`);
    },
    async discardPending(tx, workflowId) {
      await run(tx, sql`DELETE FROM workflow_outbox WHERE workflow_id = ${workflowId} AND dispatched_at IS NULL`);
    },
    wakeRelay: () => wakeOutboxRelay(deps.orm),
    async cancel(workflowId, log) {
      const temporal = deps.temporal;
      if (!temporal) throw new Error('This process has no Temporal client to cancel workflows with.');
      try {
        const handle = temporal.workflow.getHandle(workflowId);
        await temporal.connection.withDeadline(Date.now() + CANCEL_DEADLINE_MS, () => handle.cancel());
      } catch (error) {
        if (error instanceof WorkflowNotFoundError) return;
        log?.warn({ workflowId, err: (error as Error).message }, 'could not cancel a workflow');
      }
    },
  };
}
