import { CancellationScope, condition, continueAsNew, defineSignal, isCancellation, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { createLibraryImportActivities } from '../activities/library-import.ts';
import { RECORD_RETRY } from '../temporal/failures.ts';
import { recordOutcome } from './outcome.ts';

type ImportActivities = ReturnType<typeof createLibraryImportActivities>;

// Saving and pacing are database work: retried until the database is back. Pacing heartbeats.
const { saveImportRows } = proxyActivities<ImportActivities>({ startToCloseTimeout: '5 minutes', retry: RECORD_RETRY });
const { paceImport } = proxyActivities<ImportActivities>({ startToCloseTimeout: '2 minutes', heartbeatTimeout: '10 seconds', retry: RECORD_RETRY });
const { finishCancelledImport } = proxyActivities<ImportActivities>({ startToCloseTimeout: '30 seconds', retry: RECORD_RETRY });

/**
 * Wakes an import waiting for credits before its timer: the credits changed (a plan, a top-up). Signal name `importWake`;
 * not exported, since every export of the workflow bundle is a workflow type.
 */
const importWakeSignal = defineSignal('importWake');

/** While waiting for credits, look again at least this often (a plan changed without a signal). */
const RECHECK_MS = 60 * 60 * 1000;

export interface LibraryImportInput {
  importId: string;
}

export type LibraryImportResult = { importId: string; outcome: 'completed' | 'cancelled' };

/**
 * `library-import/<importId>`: brings a learner's list into the library. The text stays in
 * PostgreSQL; the history holds the id. It saves every row as a card (one transaction per
 * batch), then paces the preparations (each a `card-enrichment/<cardId>` run started through the
 * outbox, as a capture's) within the learner's model budget, a long heartbeating activity at a
 * time. Out of credits, it waits (a durable timer) until they renew, then goes on. Cancelled
 * (DELETE), it marks what had not started and ends Completed with the outcome `cancelled`.
 */
export async function libraryImport(input: LibraryImportInput): Promise<LibraryImportResult> {
  let woken = false;
  setHandler(importWakeSignal, () => {
    woken = true;
  });
  try {
    await saveImportRows(input);
    for (;;) {
      const step = await paceImport(input);
      if (step.done) break;
      if (step.waitForCreditsUntil) {
        const until = new Date(step.waitForCreditsUntil).getTime();
        woken = false;
        await condition(() => woken, Math.max(1_000, Math.min(until - Date.now(), RECHECK_MS)));
      }
      if (workflowInfo().continueAsNewSuggested) await continueAsNew<typeof libraryImport>(input);
    }
  } catch (error) {
    if (!isCancellation(error)) throw error;
    await CancellationScope.nonCancellable(() => finishCancelledImport(input));
    recordOutcome('import_cancelled');
    return { importId: input.importId, outcome: 'cancelled' };
  }
  return { importId: input.importId, outcome: 'completed' };
}
