import { ActivityFailure, ApplicationFailure, type RetryPolicy, TimeoutFailure } from '@temporalio/common';
import { type ProblemCode, problemCatalog } from '../domain/problems.ts';
import { ACTIVITY_RETRY, ATTEMPT_LIMIT_MS } from '../domain/retry-policy.ts';

/**
 * Failures in Temporal, shared by workflows and activities, so it stays workflow-safe: no I/O,
 * only @temporalio/common and pure domain rules. Every failure type is a catalog code
 * (src/domain/problems.ts): what a workflow stores, and what an operator sees in the Web UI, is
 * one. Whether a failure is worth another attempt is decided by src/domain/retry-policy.ts, in the
 * activity (src/temporal/activity-failure.ts), so no list of non-retryable types is kept here.
 */

/**
 * The retry policy of every activity that does a unit of work. The activity decides
 * (src/temporal/activity-failure.ts): it marks its failure non-retryable when what failed deserves
 * no more, and sets the wait before a provider outage's next attempt itself. The attempt cap is
 * only a backstop above both budgets, for attempts that end without an answer (a timeout).
 */
const WORK_RETRY: RetryPolicy = {
  initialInterval: ACTIVITY_RETRY.initialIntervalMs,
  backoffCoefficient: ACTIVITY_RETRY.backoffCoefficient,
  maximumInterval: ACTIVITY_RETRY.maximumIntervalMs,
  maximumAttempts: 100,
};

/** Recording an outcome is a small database write: retried, unbounded, until it lands. */
export const RECORD_RETRY: RetryPolicy = { initialInterval: ACTIVITY_RETRY.initialIntervalMs, maximumInterval: ACTIVITY_RETRY.maximumIntervalMs };

/**
 * The same call as a local activity: run by the worker inside the workflow task that schedules
 * it, so the Temporal server sees one workflow task instead of an activity task and a second
 * workflow task. A worker that dies mid-call is noticed by the workflow task's timeout (10 s);
 * a cancellation reaches the call at the task's next heartbeat to the server (every 8 s) or at once
 * when the run's worker holds it. A wait between attempts longer than 5 s is a timer on the server
 * (`localRetryThreshold`), not a workflow task held open by the worker: a card waiting out a
 * provider outage for half an hour costs the worker nothing meanwhile, and survives its restart.
 * An attempt may take ATTEMPT_LIMIT_MS (a wait for a model slot, then the call).
 * Only activity options: replay does not compare them, so running workflows are unaffected.
 */
export const LOCAL_LONG_CALL = { startToCloseTimeout: ATTEMPT_LIMIT_MS, retry: WORK_RETRY, localRetryThreshold: '5 seconds' } as const;

/**
 * The options of every activity that makes one long model or speech call: it heartbeats
 * (activities/background-call.ts), so a worker that dies mid-call is noticed within seconds and
 * the attempt retried elsewhere, long before the start-to-close timeout.
 */
export const LONG_CALL = { startToCloseTimeout: LOCAL_LONG_CALL.startToCloseTimeout, retry: WORK_RETRY, heartbeatTimeout: '10 seconds' } as const;

export interface CatalogFailure {
  code: ProblemCode;
  message: string;
}

/** A failure whose type is a catalog code; `nonRetryable` unless the caller says otherwise. */
export function catalogFailure(
  failure: CatalogFailure,
  options: { nonRetryable?: boolean; cause?: unknown; detail?: unknown; nextRetryDelayMs?: number } = {},
): ApplicationFailure {
  return ApplicationFailure.create({
    type: failure.code,
    message: failure.message,
    nonRetryable: options.nonRetryable ?? true,
    ...(options.nextRetryDelayMs === undefined ? {} : { nextRetryDelay: options.nextRetryDelayMs }),
    ...(options.cause instanceof Error ? { cause: options.cause } : {}),
    ...(options.detail === undefined ? {} : { details: [options.detail] }),
  });
}

/**
 * What a failed activity ends with, as a catalog code: the type our activities give their
 * failures, or service_unavailable for a timeout (a dead worker, a hung call) that outlived the
 * retries. Never a class name such as `DriverException`.
 */
export function catalogFailureOf(error: unknown): CatalogFailure {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure && cause.type && cause.type in problemCatalog) return { code: cause.type as ProblemCode, message: cause.message };
  if (cause instanceof TimeoutFailure) return { code: 'service_unavailable', message: 'The work timed out.' };
  return { code: 'internal_error', message: 'The work failed unexpectedly.' };
}
