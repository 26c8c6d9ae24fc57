import { isCancellation, patched, proxyActivities } from '@temporalio/workflow';
import type { createHousekeepingActivities } from '../activities/housekeeping.ts';
import { RETENTION_TABLES, summarisePass, type HousekeepingPass, type RetentionTable, type TableSweep } from '../domain/retention.ts';
import { catalogFailure, catalogFailureOf, type CatalogFailure } from '../temporal/failures.ts';

type HousekeepingActivities = ReturnType<typeof createHousekeepingActivities>;

/** A sweep stops within its time budget (≤ 2 minutes); a failing one is retried a little, then left to the next pass. */
const { sweepRetentionTable } = proxyActivities<HousekeepingActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 3 },
});

const { recordHousekeepingPass } = proxyActivities<HousekeepingActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '10 seconds', maximumAttempts: 5 },
});

/**
 * Tables added to RETENTION_TABLES after runs were recorded, each behind its patch: a run that
 * started before the table was added replays without its sweep (docs/workflows.md). The patch id
 * is recorded in histories: never rename it.
 */
const ADDED_TABLES: Partial<Record<RetentionTable, string>> = { card_encounters: 'retention-card-encounters' };

/**
 * One retention pass, started by the `housekeeping/<task queue>` Schedule: each table in turn,
 * so one table's failure does not keep the others from their bound. Nothing in, counts out (the
 * Web UI shows them as the result). A pass with a failed table ends FAILED, counts attached.
 */
export async function housekeepingWorkflow(): Promise<HousekeepingPass> {
  const tables: Partial<Record<RetentionTable, TableSweep>> = {};
  const failed: RetentionTable[] = [];
  let firstFailure: CatalogFailure | undefined;
  for (const table of RETENTION_TABLES) {
    const patch = ADDED_TABLES[table];
    if (patch !== undefined && !patched(patch)) continue;
    try {
      tables[table] = await sweepRetentionTable(table);
    } catch (error) {
      if (isCancellation(error)) throw error;
      failed.push(table);
      firstFailure ??= catalogFailureOf(error);
    }
  }
  const pass = summarisePass(tables, failed);
  await recordHousekeepingPass(pass);
  if (firstFailure) {
    // The first table's catalog code says what kind of trouble it was (the database away, a bug).
    throw catalogFailure({ code: firstFailure.code, message: `housekeeping could not sweep ${failed.join(', ')}` }, { detail: pass });
  }
  return pass;
}
