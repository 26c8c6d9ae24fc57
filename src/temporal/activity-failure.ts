import { Context } from '@temporalio/activity';
import type { ApplicationFailure } from '@temporalio/common';
import { isDatabaseUnavailable } from '../domain/database-errors.ts';
import { isAppError, type ProblemCode } from '../domain/problems.ts';
import { type FailureKind, failureKind, mayRetry, PROVIDER_WAIT, providerRetryDelayMs, type ProviderWait } from '../domain/retry-policy.ts';
import { counter } from '../platform/metrics.ts';
import { ModelSlotsBusy } from '../services/model-slots.ts';
import { catalogFailure } from './failures.ts';

const activityFailures = counter('lcs_activity_failures_total', 'Failed activity attempts, by activity, catalog code and whether Temporal tries again', [
  'activity',
  'code',
  'retried',
]);

/**
 * Every failure leaves an activity as an ApplicationFailure whose type is a catalog code, so
 * whatever a workflow stores is one. Whether Temporal tries again is decided here, from what failed
 * and the attempt number (src/domain/retry-policy.ts): a verdict is final at once, a provider outage
 * is waited out for half an hour (each wait a server-side timer, never before the provider's breaker
 * lets a call through: `retryAt` on the error), the database or a bug for minutes. Messages are catalog details, never user
 * text; a raw error (which may quote SQL values) reaches the log by class and code only.
 */
export function activityFailure(error: unknown, override?: { code: ProblemCode; kind: FailureKind; message: string }): ApplicationFailure {
  const context = Context.current();
  const { attempt, activityType } = context.info;
  if (error instanceof ModelSlotsBusy) {
    // Queued behind MODEL_MAX_CONCURRENCY for as long as the attempt could wait: the provider is not at fault, so wait briefly and queue again.
    activityFailures.inc({ activity: activityType, code: error.code, retried: 'true' });
    return catalogFailure({ code: error.code, message: error.message }, { nonRetryable: false, nextRetryDelayMs: SLOTS_BUSY_RETRY_MS * (1 + Math.random()) });
  }
  let failure: { code: ProblemCode; kind: FailureKind; message: string };
  if (override) failure = override;
  else if (isAppError(error)) failure = { code: error.code, kind: failureKind(error.code), message: error.message };
  else {
    const unavailable = isDatabaseUnavailable(error);
    failure = {
      code: unavailable ? 'service_unavailable' : 'internal_error',
      kind: 'infrastructure',
      message: unavailable ? 'The database was unreachable.' : 'The work failed unexpectedly.',
    };
    context.log.warn('activity attempt failed', { activity: activityType, attempt, error: (error as Error)?.name, code: (error as { code?: unknown })?.code });
  }
  if (failure.kind === 'provider') {
    const stated = isAppError(error) ? error.extensions.retryAt : undefined;
    const retryAt = typeof stated === 'string' ? Date.parse(stated) : NaN;
    const delayMs = providerRetryDelayMs(attempt, {
      nowMs: Date.now(),
      retryAtMs: Number.isFinite(retryAt) ? retryAt : undefined,
      random: Math.random(),
      wait: providerWait,
    });
    activityFailures.inc({ activity: activityType, code: failure.code, retried: String(delayMs !== null) });
    return catalogFailure(failure, delayMs === null ? {} : { nonRetryable: false, nextRetryDelayMs: delayMs });
  }
  const retry = mayRetry(failure.kind, attempt);
  activityFailures.inc({ activity: activityType, code: failure.code, retried: String(retry) });
  return catalogFailure(failure, { nonRetryable: !retry });
}

const SLOTS_BUSY_RETRY_MS = 1_000;

let providerWait: ProviderWait = PROVIDER_WAIT;

/** How long the worker waits out a provider outage: also the longest an attempt waits for the breaker. */
export const providerWaitWindowMs = () => providerWait.windowMs;

/** The worker's provider wait (config: PROVIDER_WAIT_*); shorter only in tests and the chaos run's short profile. */
export function setProviderWait(wait: ProviderWait): void {
  providerWait = wait;
}
