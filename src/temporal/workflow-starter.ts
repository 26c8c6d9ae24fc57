import type { Workflow } from '@temporalio/common';
import type { Em } from '../db/orm.ts';
import { sql, run } from '../db/sql.ts';
import { activeTraceContext } from '../platform/telemetry.ts';
import type * as workflows from '../workflows/index.ts';
import type { WorkflowKind } from './workflow-ids.ts';

/**
 * The workflow outbox, recording side: a request writes its data and, in the same transaction, a
 * row naming the workflow to start; after the commit, wakeOutboxRelay wakes the worker's relay
 * (src/temporal/outbox-dispatch.ts), which starts it.
 */

type Workflows = typeof workflows;
/** Every workflow the worker runs, by type name: the exported function's name, as Temporal has it. */
export type WorkflowType = { [Name in keyof Workflows]: Workflows[Name] extends Workflow ? Name : never }[keyof Workflows];
type RegisteredWorkflow = Workflows[WorkflowType];

export interface WorkflowStart {
  workflowType: WorkflowType;
  workflowId: string;
  taskQueue: string;
  /** The arguments of one of the workflows (ids only: Temporal's history must hold no user content). */
  args: Parameters<RegisteredWorkflow>;
  userId: string;
  kind: WorkflowKind;
}

/**
 * A start of `workflow` with `args`, checked against the workflow's own parameters by the
 * compiler; the row stores its type name and the args as JSON.
 */
export function outboxStart<W extends RegisteredWorkflow>(
  workflow: W,
  args: Parameters<W>,
  where: Omit<WorkflowStart, 'workflowType' | 'args'>,
): WorkflowStart {
  return { workflowType: workflow.name as WorkflowType, args, ...where };
}

/**
 * The outbox row's columns and, in the same order, a start's values for them: the start, and the
 * trace of the request that recorded it (null when tracing is off).
 */
export const OUTBOX_COLUMNS = sql`workflow_type, workflow_id, task_queue, args, user_id, kind, trace_context`;
export const outboxValues = (start: WorkflowStart) => {
  const trace = activeTraceContext();
  return sql`${start.workflowType}, ${start.workflowId}, ${start.taskQueue}, ${JSON.stringify(start.args)}::jsonb, ${start.userId},
    ${start.kind}, ${trace && JSON.stringify(trace)}::jsonb`;
};

/** Records a workflow to start; call inside the transaction that creates its subject. */
export async function enqueueWorkflow(tx: Em, start: WorkflowStart): Promise<void> {
  await run(tx, sql`INSERT INTO workflow_outbox (${OUTBOX_COLUMNS}) VALUES (${outboxValues(start)})`);
}

/** Drops undispatched starts of a subject that no longer exists (e.g. a deleted card). */
export async function discardPendingStarts(tx: Em, workflowId: string): Promise<void> {
  await run(tx, sql`DELETE FROM workflow_outbox WHERE workflow_id = ${workflowId} AND dispatched_at IS NULL`);
}
