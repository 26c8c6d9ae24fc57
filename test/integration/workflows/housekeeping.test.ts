import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { RETENTION_TABLES, type HousekeepingPass, type RetentionTable, type TableSweep } from '../../../src/domain/retention.ts';
import { housekeepingSchedule } from '../../../src/temporal/schedules.ts';
import { attempt, expectFailedWith, failsWith, runWithWorker, settle, timeSkipped, useTimeSkipping, type MockActivities } from './support.ts';

// src/workflows/housekeeping.ts with its activities mocked, on Temporal's time-skipping test server,
// started the way its Schedule starts it (src/temporal/schedules.ts).
const env = useTimeSkipping();

function runPass(activities: MockActivities) {
  return runWithWorker(env(), activities, async (client, taskQueue) => {
    const { action } = housekeepingSchedule(loadConfig({ TEMPORAL_TASK_QUEUE: taskQueue }));
    const handle = await client.workflow.start(action.workflowType, { taskQueue: action.taskQueue, workflowId: action.workflowId, args: action.args });
    return settle<HousekeepingPass>(handle.result());
  });
}

const swept = (deleted: number): TableSweep => ({ deleted, batches: 1, more: false });

describe('housekeeping', () => {
  it('sweeps every retention table in turn, reports the pass and returns its counts', async () => {
    const sweepRetentionTable = vi.fn(async (_table: RetentionTable) => swept(2));
    const recordHousekeepingPass = vi.fn(async (_pass: HousekeepingPass) => {});
    const { value } = await runPass({ sweepRetentionTable, recordHousekeepingPass });
    expect(sweepRetentionTable.mock.calls.map(([table]) => table)).toEqual([...RETENTION_TABLES]);
    const pass = { deleted: 2 * RETENTION_TABLES.length, tables: Object.fromEntries(RETENTION_TABLES.map((table) => [table, swept(2)])), failed: [] };
    expect(value).toEqual(pass);
    expect(recordHousekeepingPass).toHaveBeenCalledExactlyOnceWith(pass);
  });

  it('a table whose sweep fails three times is left to the next pass; the others are swept, and the pass ends FAILED with the counts', async () => {
    const [broken, ...others] = RETENTION_TABLES;
    const sweepRetentionTable = vi.fn(async (table: RetentionTable) => (table === broken ? failsWith('database_unreachable') : swept(1)));
    const recordHousekeepingPass = vi.fn(async (_pass: HousekeepingPass) => {});
    const { result, skippedMs } = await timeSkipped(env(), () => runPass({ sweepRetentionTable, recordHousekeepingPass }));
    const { error } = result;
    const failure = expectFailedWith(error, 'service_unavailable');
    const pass = { deleted: others.length, tables: Object.fromEntries(others.map((table) => [table, swept(1)])), failed: [broken] };
    expect(failure.cause.details).toEqual([pass]);
    expect(recordHousekeepingPass).toHaveBeenCalledExactlyOnceWith(pass);
    expect(sweepRetentionTable.mock.calls.filter(([table]) => table === broken)).toHaveLength(3);
    expect(skippedMs).toBeGreaterThanOrEqual(5_000); // 5 s + 10 s of backoff, skipped: the first at least
  });

  it('a sweep that succeeds on its retry counts as swept', async () => {
    const sweepRetentionTable = vi.fn(async (table: RetentionTable) =>
      table === RETENTION_TABLES[1] && attempt() < 3 ? failsWith('internal_error') : swept(0),
    );
    const { value } = await runPass({ sweepRetentionTable, recordHousekeepingPass: async () => {} });
    expect(value).toMatchObject({ deleted: 0, failed: [] });
  });

  it('the first failing table names the code of the whole pass', async () => {
    const sweepRetentionTable = vi.fn(async (table: RetentionTable) => {
      if (table === RETENTION_TABLES[0]) failsWith('invalid_request');
      if (table === RETENTION_TABLES[2]) failsWith('database_unreachable');
      return swept(0);
    });
    const { error } = await runPass({ sweepRetentionTable, recordHousekeepingPass: async () => {} });
    const failure = expectFailedWith(error, 'invalid_request');
    expect(failure.cause.details).toEqual([expect.objectContaining({ failed: [RETENTION_TABLES[0], RETENTION_TABLES[2]] })]);
  });
});
