import type { Logger } from 'pino';
import { AppError } from '../domain/problems.ts';
import { isRetentionTable, type HousekeepingPass, type RetentionTable, type TableSweep } from '../domain/retention.ts';
import { counter } from '../platform/metrics.ts';
import { createLogger } from '../platform/logger.ts';
import { retentionPolicy, sweepBudget, sweepTable } from '../services/retention.ts';
import { activityFailure } from '../temporal/activity-failure.ts';
import type { ActivityDeps } from './index.ts';

const passes = counter('lcs_housekeeping_passes_total', 'Housekeeping passes, by outcome', ['outcome']);

/**
 * Retention: one activity per table and pass, and one that reports the pass. Numbers only.
 * Activities log through the SDK's runtime, kept to warnings; a pass is worth an info line.
 */
export function createHousekeepingActivities(deps: Omit<ActivityDeps, 'temporal'>, logger: Pick<Logger, 'info'> = createLogger(deps.config)) {
  const policy = retentionPolicy(deps.config);
  const budget = sweepBudget(deps.config);
  return {
    /** Deletes what the table's retention bound allows, within this pass's budget. */
    async sweepRetentionTable(table: RetentionTable): Promise<TableSweep> {
      try {
        if (!isRetentionTable(table)) throw new AppError('invalid_request', 'Not a retention table.');
        return await sweepTable(deps.orm.em.fork(), table, policy, budget);
      } catch (error) {
        throw activityFailure(error);
      }
    },
    async recordHousekeepingPass(pass: HousekeepingPass): Promise<void> {
      const unfinished = Object.entries(pass.tables).flatMap(([table, sweep]) => (sweep?.more ? [table] : []));
      passes.inc({ outcome: pass.failed.length > 0 ? 'failed' : unfinished.length > 0 ? 'unfinished' : 'complete' });
      const deleted = Object.fromEntries(Object.entries(pass.tables).map(([table, sweep]) => [table, sweep?.deleted ?? 0]));
      logger.info({ deleted, total: pass.deleted, unfinished, failed: pass.failed }, 'housekeeping pass');
    },
  };
}
