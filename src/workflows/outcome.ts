import { upsertSearchAttributes } from '@temporalio/workflow';
import { type BusinessOutcome, businessOutcomeOf, type WorkflowOutcome } from '../domain/workflow-outcome.ts';
import { type CatalogFailure, catalogFailure } from '../temporal/failures.ts';
import { outcomeKey } from '../temporal/search-attributes.ts';

/**
 * How the card, sentence and audio workflows end when their work was not done.
 *
 * Replay: the outcome is recorded as the workflow's last command, after its last activity, so a
 * history written by the code before it (a run still open at deploy) replays unchanged up to
 * that point; a run that had already closed is never replayed by a worker. No `patched` needed.
 */

/** Tags the run with its outcome (`LcsOutcome`), for operators' visibility queries. */
export function recordOutcome(outcome: WorkflowOutcome): void {
  upsertSearchAttributes([{ key: outcomeKey, value: outcome }]);
}

/**
 * After the failure has been written to its subject: a business outcome (no credits) is
 * returned, for the workflow to complete with; any other failure is thrown, and the run ends
 * Failed with its catalog code. Both are tagged.
 */
export function outcomeOfFailure(failure: CatalogFailure, options: { cause?: unknown } = {}): BusinessOutcome {
  const business = businessOutcomeOf(failure.code);
  recordOutcome(business ?? failure.code);
  if (business) return business;
  throw catalogFailure(failure, options);
}
