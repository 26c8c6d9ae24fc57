/**
 * How background work retries, by what failed. Pure: the workflows build their activity retry
 * policies from ACTIVITY_RETRY, and the activities decide per failure whether another attempt
 * may help. Only a verdict ends work `failed` early; an outage of the database or of Temporal is
 * waited out for minutes, and one of the model provider for half an hour (PROVIDER_WAIT), because
 * it is not the user's failure and no learner waits on background work.
 */
import type { ProblemCode } from './problems.ts';

/**
 * The most one attempt of a model or speech call may take: its wait for a model slot
 * (MODEL_MAX_CONCURRENCY), for the provider's breaker, and the call itself. Long, because a slot on
 * a slow local model may be minutes away and waiting inside the attempt wakes as soon as one frees
 * (a retry would sleep out its backoff and spend an attempt); a worker that dies mid-attempt is
 * noticed by its heartbeat within seconds, never by this limit.
 */
export const ATTEMPT_LIMIT_MS = 30 * 60_000;

/** The longest model call (its requests and quick retries) may take at most half an attempt, so that it can still wait for a slot. */
export const LONGEST_MODEL_CALL_LIMIT_MS = ATTEMPT_LIMIT_MS / 2;

/**
 * How long one attempt waits for the provider's breaker and retries the calls it fails, before it
 * ends and leaves the next wait to the activity's retry schedule (a server-side timer). Attempts
 * are what the outage window counts (providerRetryDelayMs), so an attempt's wait stays short.
 */
export const PROVIDER_WAIT_PER_ATTEMPT_MS = 4 * 60_000;

/** A provider's Retry-After longer than this is left to the activity's own retry schedule, not waited within a call. */
export const QUICK_RETRY_AFTER_LIMIT_MS = 5_000;

/** The longest one model call can take: every request's timeout and the waits between its quick retries. */
export const longestModelCallMs = (timeoutMs: number, maxRetries: number) => timeoutMs * (maxRetries + 1) + maxRetries * QUICK_RETRY_AFTER_LIMIT_MS;

export const ACTIVITY_RETRY = {
  initialIntervalMs: 1_000,
  backoffCoefficient: 2,
  maximumIntervalMs: 30_000,
  /** The database, Temporal, a dead worker, a timeout: about 9.5 minutes of backoff (retryWindowMs). */
  infrastructureAttempts: 24,
} as const;

/**
 * How background work waits out a provider that cannot serve it (5xx, 429, unreachable, or its
 * circuit breaker open): retry n waits between 3/4 of and the whole of `min(maxDelayMs, initialDelayMs·2^(n-1))`
 * (backoff with jitter, so a thousand waiting cards do not come back at once), and never before the
 * breaker's next probe. Work gives up only once the waits it is sure to have made add up to
 * `windowMs`: an outage shorter than 30 minutes fails nothing; one longer gives up within about 40.
 */
export interface ProviderWait {
  windowMs: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

/** What a card or a sentence waiting out a provider outage says (`enrichmentWaiting`, `waiting`). */
export const WAITING_MESSAGE = 'Waiting for the language model';

export const PROVIDER_WAIT: ProviderWait = { windowMs: 30 * 60_000, initialDelayMs: 5_000, maxDelayMs: 120_000 };

/** The share of a retry's backoff cap that is always waited; the rest is jitter. */
const SURE_SHARE = 0.75;

/** The cap of retry n's wait (1-based). */
const providerCapMs = (n: number, wait: ProviderWait) => exponentialBackoffMs(n, { initialMs: wait.initialDelayMs, factor: 2, maxMs: wait.maxDelayMs });

/**
 * After provider failure number `attempt` (1-based): how long to wait before the next attempt, or
 * null when the work has waited out its window. `retryAtMs` is when the provider's breaker lets a
 * call through again (epoch ms), if known; `random` is in [0, 1).
 */
export function providerRetryDelayMs(
  attempt: number,
  options: { nowMs: number; retryAtMs?: number | undefined; random: number; wait?: ProviderWait },
): number | null {
  const wait = options.wait ?? PROVIDER_WAIT;
  if (providerSureWaitMs(attempt, wait) >= wait.windowMs) return null;
  const cap = providerCapMs(attempt, wait);
  const jittered = Math.round(cap * (SURE_SHARE + (1 - SURE_SHARE) * options.random));
  const untilProbe = options.retryAtMs === undefined ? 0 : Math.max(0, options.retryAtMs - options.nowMs);
  return Math.max(jittered, Math.min(untilProbe, wait.maxDelayMs));
}

/** What work has surely waited after `failures` provider failures: the sure share of each retry's cap. */
export function providerSureWaitMs(failures: number, wait: ProviderWait = PROVIDER_WAIT): number {
  let total = 0;
  for (let n = 1; n < failures; n++) total += providerCapMs(n, wait) * SURE_SHARE;
  return total;
}

/** How many attempts a provider outage gets at most before work gives up. */
export function providerAttempts(wait: ProviderWait = PROVIDER_WAIT): number {
  let attempts = 1;
  while (providerSureWaitMs(attempts, wait) < wait.windowMs) attempts++;
  return attempts;
}

/**
 * - `verdict`: another attempt gives the same answer (no credits, privacy routing refused,
 *   output that failed validation after its own retry, no language set).
 * - `provider`: the model or speech provider was unavailable; waited out (PROVIDER_WAIT).
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

/**
 * Whether attempt number `attempt` (1-based) that failed this way may be followed by another.
 * A provider failure's wait is decided by providerRetryDelayMs.
 */
export function mayRetry(kind: FailureKind, attempt: number, wait: ProviderWait = PROVIDER_WAIT): boolean {
  if (kind === 'verdict') return false;
  if (kind === 'provider') return providerSureWaitMs(attempt, wait) < wait.windowMs;
  return attempt < ACTIVITY_RETRY.infrastructureAttempts;
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
