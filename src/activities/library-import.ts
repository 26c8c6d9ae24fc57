import { Context } from '@temporalio/activity';
import type { FeatureContexts } from '../features/context.ts';
import { finishCancelledImport, paceImport, saveImportRows, type PaceResult } from '../features/library/imports/pacing.ts';
import { activityLog } from './background-call.ts';

/**
 * The library-import workflow's activities (src/features/library/imports/pacing.ts). Their names are
 * Temporal activity types, recorded in every run's history: they stay.
 */
export function createLibraryImportActivities(contexts: FeatureContexts) {
  return {
    async saveImportRows({ importId }: { importId: string }): Promise<void> {
      await saveImportRows(contexts(activityLog), importId);
    },
    /** Up to a minute of pacing; heartbeats every step, so a dead worker is noticed in seconds and the step retried elsewhere. */
    async paceImport({ importId }: { importId: string }): Promise<PaceResult> {
      const context = Context.current();
      return paceImport(contexts(activityLog), importId, () => context.heartbeat(), context.cancellationSignal);
    },
    async finishCancelledImport({ importId }: { importId: string }): Promise<void> {
      await finishCancelledImport(contexts(activityLog), importId);
    },
  };
}
