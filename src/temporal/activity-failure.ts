import { Context } from '@temporalio/activity';
import type { ApplicationFailure } from '@temporalio/common';
import { isDatabaseUnavailable } from '../domain/database-errors.ts';
import { isAppError, type ProblemCode } from '../domain/problems.ts';
import { type FailureKind, failureKind, mayRetry } from '../domain/retry-policy.ts';
import { counter } from '../platform/metrics.ts';
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
 * is retried briefly, the database or a bug for minutes. Messages are catalog details, never user
 * text; a raw error (which may quote SQL values) reaches the log by class and code only.
 */
export function activityFailure(error: unknown, override?: { code: ProblemCode; kind: FailureKind; message: string }): ApplicationFailure {
  const context = Context.current();
  const { attempt, activityType } = context.info;
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
  const retry = mayRetry(failure.kind, attempt);
  activityFailures.inc({ activity: activityType, code: failure.code, retried: String(retry) });
  return catalogFailure(failure, { nonRetryable: !retry });
}
