import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client, type ScheduleDescription } from '@temporalio/client';
import type { Config } from '../config.ts';
import { fsrsOptimisationSweepWorkflow } from '../workflows/fsrs-optimisation.ts';
import { housekeepingWorkflow } from '../workflows/housekeeping.ts';

/**
 * The Temporal Schedule that runs housekeeping (src/workflows/housekeeping.ts), so that
 * operators see each retention pass, its counts and its failures in the same Web UI as every
 * other workflow, and can pause, trigger or re-time it there. One per task queue (deployment).
 */
export const housekeepingScheduleId = (taskQueue: string) => `housekeeping/${taskQueue}`;

/** Missed passes (Temporal down) are not made up for: the next pass deletes whatever they would have. */
const CATCHUP_WINDOW_MS = 60_000;

export function housekeepingSchedule(config: Pick<Config, 'temporal' | 'housekeeping'>) {
  const taskQueue = config.temporal.taskQueue;
  return {
    scheduleId: housekeepingScheduleId(taskQueue),
    spec: { intervals: [{ every: config.housekeeping.intervalMinutes * 60_000 }] },
    action: {
      type: 'startWorkflow' as const,
      workflowType: housekeepingWorkflow.name,
      workflowId: `housekeeping/${taskQueue}`,
      taskQueue,
      args: [],
    },
    // Never two passes at once from the schedule (the sweeps would share the work anyway).
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: CATCHUP_WINDOW_MS },
  };
}

export type DeploymentSchedule = ReturnType<typeof housekeepingSchedule>;

export const optimisationScheduleId = (taskQueue: string) => `fsrs-optimisation/${taskQueue}`;
const WEEK_MS = 7 * 24 * 3_600_000;

/**
 * The weekly pass of the personal FSRS optimiser (src/workflows/fsrs-optimisation.ts): it queues a
 * fit for each learner who reviewed since their last one. A missed week is not made up for: the
 * next pass sees the same logs.
 */
export function optimisationSchedule(config: Pick<Config, 'temporal'>): DeploymentSchedule {
  const taskQueue = config.temporal.taskQueue;
  return {
    scheduleId: optimisationScheduleId(taskQueue),
    spec: { intervals: [{ every: WEEK_MS }] },
    action: { type: 'startWorkflow', workflowType: fsrsOptimisationSweepWorkflow.name, workflowId: `fsrs-optimisation-pass/${taskQueue}`, taskQueue, args: [] },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: CATCHUP_WINDOW_MS },
  };
}

/** Whether the schedule Temporal has is the one this process would create. */
export function scheduleMatches(current: Pick<ScheduleDescription, 'spec' | 'action' | 'policies'>, wanted: DeploymentSchedule): boolean {
  const intervals = (current.spec.intervals ?? []).map((i) => ({ every: i.every, offset: i.offset ?? 0 }));
  return (
    JSON.stringify(intervals) === JSON.stringify(wanted.spec.intervals.map((i) => ({ every: i.every, offset: 0 }))) &&
    (current.spec.calendars ?? []).length === 0 &&
    current.action.workflowType === wanted.action.workflowType &&
    current.action.workflowId === wanted.action.workflowId &&
    current.action.taskQueue === wanted.action.taskQueue &&
    current.policies.overlap === wanted.policies.overlap &&
    current.policies.catchupWindow === wanted.policies.catchupWindow
  );
}

export type EnsureOutcome = 'created' | 'updated' | 'unchanged' | 'refused';

/**
 * Every worker calls this at start for each of the deployment's schedules: creates one when it is
 * missing and updates it when its spec changed (keeping an operator's pause). Workers starting
 * together are fine: one creates, the others find the same schedule. A cluster that refuses
 * schedules (permissions, a namespace without them) gets a loud log line, and the worker runs on.
 */
async function ensureSchedule(client: Client, wanted: DeploymentSchedule, refused: (error: Error) => void): Promise<EnsureOutcome> {
  try {
    try {
      await client.schedule.create(wanted);
      return 'created';
    } catch (error) {
      if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    }
    const handle = client.schedule.getHandle(wanted.scheduleId);
    const current = await handle.describe();
    if (scheduleMatches(current, wanted)) return 'unchanged';
    await handle.update((previous) => ({
      spec: wanted.spec,
      action: wanted.action,
      policies: wanted.policies,
      state: { paused: previous.state.paused, note: previous.state.note },
    }));
    return 'updated';
  } catch (error) {
    refused(error as Error);
    return 'refused';
  }
}

type ScheduleLogger = { error: (message: string) => void };
const consoleLogger: ScheduleLogger = { error: (message) => console.error(message) };

export const ensureHousekeepingSchedule = (client: Client, config: Pick<Config, 'temporal' | 'housekeeping'>, logger: ScheduleLogger = consoleLogger) =>
  ensureSchedule(client, housekeepingSchedule(config), (error) =>
    logger.error(
      `HOUSEKEEPING IS OFF: the Temporal Schedule ${housekeepingScheduleId(config.temporal.taskQueue)} could not be created or updated (${error.message}). ` +
        'Retention bounds are not enforced until it exists: allow schedules on the namespace, or create it as the README says.',
    ),
  );

export const ensureOptimisationSchedule = (client: Client, config: Pick<Config, 'temporal'>, logger: ScheduleLogger = consoleLogger) =>
  ensureSchedule(client, optimisationSchedule(config), (error) =>
    logger.error(
      `WEEKLY FSRS OPTIMISATION IS OFF: the Temporal Schedule ${optimisationScheduleId(config.temporal.taskQueue)} could not be created or updated ` +
        `(${error.message}). ` +
        'Learners can still ask for a fit from their settings.',
    ),
  );
