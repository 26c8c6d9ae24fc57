import { describe, expect, it } from 'vitest';
import { blockedUntil, FAILURES_FORGOTTEN_AFTER_MS, LOGIN_RULES, recentFailures } from '../../../src/domain/login-backoff.ts';

const rule = LOGIN_RULES.accountFromAddress;
const at = (failures: number, lastFailureAt = 1_000_000) => ({ failures, lastFailureAt });

describe('login backoff', () => {
  it('lets the first failures through, then doubles the wait after each one', () => {
    expect(blockedUntil(at(rule.free - 1), rule, 1_000_000)).toBe(0);
    const waits = [0, 1, 2, 3, 4].map((extra) => blockedUntil(at(rule.free + extra), rule, 1_000_000) - 1_000_000);
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16000]);
  });

  it('never blocks for longer than the rule’s cap, however many failures', () => {
    expect(blockedUntil(at(10_000), rule, 1_000_000) - 1_000_000).toBe(rule.maxBlockMs);
    expect(blockedUntil(at(10_000), LOGIN_RULES.account, 1_000_000) - 1_000_000).toBe(LOGIN_RULES.account.maxBlockMs);
  });

  it('forgets failures after a quiet hour', () => {
    const later = 1_000_000 + FAILURES_FORGOTTEN_AFTER_MS + 1;
    expect(recentFailures(at(50), later)).toBe(0);
    expect(blockedUntil(at(50), rule, later)).toBe(0);
    expect(recentFailures(at(50), 1_000_000 + 60_000)).toBe(50);
  });

  it('keeps the account-wide cap short, so spread-out guessers cannot keep the owner out for long', () => {
    expect(LOGIN_RULES.account.maxBlockMs).toBeLessThanOrEqual(5 * 60_000);
    expect(LOGIN_RULES.account.free).toBeGreaterThan(LOGIN_RULES.accountFromAddress.free);
  });
});
