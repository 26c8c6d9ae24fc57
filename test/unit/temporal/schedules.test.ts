import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { housekeepingSchedule, scheduleMatches } from '../../../src/temporal/schedules.ts';

const config = loadConfig({ TEMPORAL_TASK_QUEUE: 'q1' });
const wanted = housekeepingSchedule(config);
/** What Temporal describes for the schedule this process would create. */
const described = () => ({
  spec: { intervals: [{ every: 3_600_000, offset: 0 }], calendars: [] },
  action: { type: 'startWorkflow' as const, workflowType: 'housekeepingWorkflow', workflowId: 'housekeeping/q1', taskQueue: 'q1' },
  policies: { overlap: 'SKIP' as const, catchupWindow: 60_000, pauseOnFailure: false },
});

describe('the housekeeping schedule', () => {
  it('runs the housekeeping workflow on its task queue every HOUSEKEEPING_INTERVAL_MINUTES, never overlapping', () => {
    expect(wanted.scheduleId).toBe('housekeeping/q1');
    expect(wanted.spec.intervals).toEqual([{ every: 3_600_000 }]);
    expect(wanted.policies.overlap).toBe('SKIP');
    expect(housekeepingSchedule(loadConfig({ TEMPORAL_TASK_QUEUE: 'q1', HOUSEKEEPING_INTERVAL_MINUTES: '15' })).spec.intervals).toEqual([{ every: 900_000 }]);
  });

  it('matches its own description, and not one whose interval, task queue or overlap changed', () => {
    expect(scheduleMatches(described(), wanted)).toBe(true);
    const retimed = described();
    retimed.spec.intervals[0]!.every = 1_800_000;
    expect(scheduleMatches(retimed, wanted)).toBe(false);
    const moved = described();
    moved.action.taskQueue = 'q2';
    expect(scheduleMatches(moved, wanted)).toBe(false);
    expect(scheduleMatches({ ...described(), policies: { overlap: 'ALLOW_ALL', catchupWindow: 60_000, pauseOnFailure: false } }, wanted)).toBe(false);
  });
});
