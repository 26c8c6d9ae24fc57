/**
 * Backoff for wrong passwords. Failures are counted twice: per account and client address (one
 * guesser), and per account from anywhere (many guessers). After `free` recent failures, each
 * further attempt waits 1 s, 2 s, 4 s … after the last failure, up to `maxBlockMs`. The account-wide
 * cap is short, so that guessers spread over many addresses cannot keep the owner out for long;
 * the owner's own address is blocked only by failures from it. A success forgets both counts;
 * failures older than FAILURES_FORGOTTEN_AFTER_MS start over.
 */
export interface LoginRule {
  free: number;
  maxBlockMs: number;
}

export const LOGIN_RULES = {
  accountFromAddress: { free: 5, maxBlockMs: 15 * 60_000 },
  account: { free: 20, maxBlockMs: 5 * 60_000 },
} as const satisfies Record<string, LoginRule>;

export const FAILURES_FORGOTTEN_AFTER_MS = 60 * 60_000;

export interface FailureCount {
  failures: number;
  lastFailureAt: number;
}

/** Failures that still count at `now`. */
export function recentFailures(count: FailureCount, now: number): number {
  return now - count.lastFailureAt > FAILURES_FORGOTTEN_AFTER_MS ? 0 : count.failures;
}

/** Until when (ms since the epoch) the next attempt must wait; at or before `now` means it may go. */
export function blockedUntil(count: FailureCount, rule: LoginRule, now: number): number {
  const failures = recentFailures(count, now);
  if (failures < rule.free) return 0;
  const waitMs = Math.min(1000 * 2 ** Math.min(failures - rule.free, 30), rule.maxBlockMs);
  return count.lastFailureAt + waitMs;
}
