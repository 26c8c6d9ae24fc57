import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client, type ScheduleDescription } from '@temporalio/client';
import type { Config } from '../config.ts';
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

export type HousekeepingSchedule = ReturnType<typeof housekeepingSchedule>;

/** Whether the schedule Temporal has is the one this process would create. */
export function scheduleMatches(current: Pick<ScheduleDescription, 'spec' | 'action' | 'policies'>, wanted: HousekeepingSchedule): boolean {
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
 * Every worker calls this at start: creates the schedule when it is missing and updates it when
 * its spec changed (keeping an operator's pause). Workers starting together are fine: one
 * creates, the others find the same schedule. A cluster that refuses schedules (permissions, a
 * namespace without them) gets a loud log line, and the worker runs on without housekeeping.
 */
export async function ensureHousekeepingSchedule(
  client: Client,
  config: Pick<Config, 'temporal' | 'housekeeping'>,
  logger: { error: (message: string) => void } = { error: (message) => console.error(message) },
): Promise<EnsureOutcome> {
  const wanted = housekeepingSchedule(config);
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
    logger.error(
      `HOUSEKEEPING IS OFF: the Temporal Schedule ${wanted.scheduleId} could not be created or updated (${(error as Error).message}). ` +
        'Retention bounds are not enforced until it exists: allow schedules on the namespace, or create it as the README says.',
    );
    return 'refused';
  }
}
