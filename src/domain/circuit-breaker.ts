/**
 * A provider's circuit breaker, its rules (pure; the shared state is in PostgreSQL,
 * src/services/provider-breaker.ts):
 * - closed: calls go. `threshold` provider failures in a row (each after its own quick retries) open it.
 * - open: no call goes until `retryAt`; every caller is told when to come back.
 * - half-open: once `retryAt` has passed, one caller (the probe) calls; the others keep waiting. The
 *   probe's success closes the breaker; its failure opens it again for the same short period.
 * Verdicts (invalid output, a privacy refusal, no credits) are answers: they close it like a success.
 */
export const BREAKER_DEFAULTS = { threshold: 5, openMs: 5_000, maxOpenMs: 60_000 } as const;

export type BreakerState = 'closed' | 'open' | 'half_open';

/** Whether a failure seen in `state`, making `failures` in a row, opens the breaker. */
export function opensOnFailure(state: BreakerState, failures: number, threshold: number = BREAKER_DEFAULTS.threshold): boolean {
  return state === 'half_open' || (state === 'closed' && failures >= threshold);
}

/**
 * How long the breaker stays open each time: `openMs` ±20 % (so that processes do not probe in
 * step), never shorter than the provider's own Retry-After (up to `maxOpenMs`). A fixed period, not
 * a growing one: a probe costs the provider one call, and work waiting for the provider goes on at
 * the first probe that succeeds, so the period bounds how long after its return work resumes.
 * `random` is in [0, 1).
 */
export function openPeriodMs(options: { openMs: number; random: number; retryAfterMs?: number | undefined; maxOpenMs?: number }): number {
  const cap = options.maxOpenMs ?? BREAKER_DEFAULTS.maxOpenMs;
  const jittered = Math.round(Math.min(cap, options.openMs) * (0.8 + 0.4 * options.random));
  return Math.max(jittered, Math.min(options.retryAfterMs ?? 0, cap));
}
