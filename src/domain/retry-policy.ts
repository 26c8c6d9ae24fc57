/**
 * How background work retries, by what failed. Pure: the workflows build their activity retry
 * policies from ACTIVITY_RETRY, and the activities decide per failure whether another attempt
 * may help. Only a verdict ends work `failed` early; an outage of the database or of Temporal is
 * waited out for minutes, because it is not the user's failure.
 */
import type { ProblemCode } from './problems.ts';

export const ACTIVITY_RETRY = {
  initialIntervalMs: 1_000,
  backoffCoefficient: 2,
  maximumIntervalMs: 30_000,
  /** The database, Temporal, a dead worker, a timeout: about 9.5 minutes of backoff (retryWindowMs). */
  infrastructureAttempts: 24,
  /** The provider could not serve the call (5xx, 429, unreachable): about 15 s of backoff. */
  providerAttempts: 5,
} as const;

/**
 * - `verdict`: another attempt gives the same answer (no credits, privacy routing refused,
 *   output that failed validation after its own retry, no language set).
 * - `provider`: the model or speech provider was unavailable; retried briefly.
 * - `infrastructure`: anything that is not a catalog error (the database, the network, a bug):
 *   retried for minutes.
 */
export type FailureKind = 'verdict' | 'provider' | 'infrastructure';

/** `code` is the catalog code of an AppError, or null for any other error. */
export function failureKind(code: ProblemCode | null): FailureKind {
  if (code === null || code === 'internal_error') return 'infrastructure';
  if (code === 'service_unavailable') return 'provider';
  return 'verdict';
}

/** Whether attempt number `attempt` (1-based) that failed this way may be followed by another. */
export function mayRetry(kind: FailureKind, attempt: number): boolean {
  if (kind === 'verdict') return false;
  return attempt < (kind === 'provider' ? ACTIVITY_RETRY.providerAttempts : ACTIVITY_RETRY.infrastructureAttempts);
}

/** The wait before retry number `n` (1-based): `initialMs`, multiplied by `factor` per retry, capped. */
export function exponentialBackoffMs(n: number, backoff: { initialMs: number; factor: number; maxMs: number }): number {
  return Math.min(backoff.maxMs, backoff.initialMs * backoff.factor ** (n - 1));
}

/** The total backoff between `attempts` attempts: how long an outage may last before work fails. */
export function retryWindowMs(attempts: number): number {
  const backoff = { initialMs: ACTIVITY_RETRY.initialIntervalMs, factor: ACTIVITY_RETRY.backoffCoefficient, maxMs: ACTIVITY_RETRY.maximumIntervalMs };
  let total = 0;
  for (let n = 1; n < attempts; n++) total += exponentialBackoffMs(n, backoff);
  return total;
}
