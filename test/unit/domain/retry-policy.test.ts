import { describe, expect, it } from 'vitest';
import {
  ACTIVITY_RETRY,
  exponentialBackoffMs,
  failureKind,
  mayRetry,
  PROVIDER_WAIT,
  providerAttempts,
  providerRetryDelayMs,
  providerSureWaitMs,
  retryWindowMs,
} from '../../../src/domain/retry-policy.ts';

describe('failureKind', () => {
  it('treats any error that is not a catalog error as infrastructure, provider outages as provider, the rest as verdicts', () => {
    expect(failureKind(null)).toBe('infrastructure');
    expect(failureKind('internal_error')).toBe('infrastructure');
    expect(failureKind('service_unavailable')).toBe('provider');
    for (const code of ['provider_output_invalid', 'insufficient_credits', 'privacy_routing_unavailable', 'language_setup_required'] as const) {
      expect(failureKind(code)).toBe('verdict');
    }
  });
});

describe('mayRetry', () => {
  it('never retries a verdict', () => {
    expect(mayRetry('verdict', 1)).toBe(false);
  });

  it('retries a provider outage for half an hour of attempts and infrastructure for many', () => {
    expect(mayRetry('provider', providerAttempts() - 1)).toBe(true);
    expect(mayRetry('provider', providerAttempts())).toBe(false);
    expect(mayRetry('infrastructure', ACTIVITY_RETRY.infrastructureAttempts - 1)).toBe(true);
    expect(mayRetry('infrastructure', ACTIVITY_RETRY.infrastructureAttempts)).toBe(false);
  });

  it('waits out a database outage of minutes', () => {
    // The chaos campaign's 15 s and 20 s database outages failed work whose budget was ~7 s.
    expect(retryWindowMs(ACTIVITY_RETRY.infrastructureAttempts)).toBeGreaterThanOrEqual(9 * 60_000);
    expect(retryWindowMs(1)).toBe(0);
  });
});

describe('providerRetryDelayMs', () => {
  const delays = (random: number) => Array.from({ length: providerAttempts() - 1 }, (_, i) => providerRetryDelayMs(i + 1, { nowMs: 0, random })!);

  it('waits out a provider outage of 30 minutes, whatever the jitter, and gives up within about 40', () => {
    // The chaos run: a 30 s outage failed 18 cards for good after ~15 s of retries.
    const sum = (list: number[]) => list.reduce((a, b) => a + b, 0);
    expect(sum(delays(0))).toBeGreaterThanOrEqual(PROVIDER_WAIT.windowMs);
    expect(sum(delays(0.999_999))).toBeLessThanOrEqual(41 * 60_000);
    expect(providerSureWaitMs(providerAttempts())).toBeGreaterThanOrEqual(PROVIDER_WAIT.windowMs);
    expect(providerRetryDelayMs(providerAttempts(), { nowMs: 0, random: 0.5 })).toBeNull();
  });

  it('backs off from 5 s to 2 minutes, with a quarter of each wait jittered', () => {
    expect(delays(0).slice(0, 7)).toEqual([3_750, 7_500, 15_000, 30_000, 60_000, 90_000, 90_000]);
    expect(delays(0.999_999).slice(0, 7)).toEqual([5_000, 10_000, 20_000, 40_000, 80_000, 120_000, 120_000]);
  });

  it("never comes back before the breaker's next probe, nor later than the longest wait", () => {
    expect(providerRetryDelayMs(1, { nowMs: 1_000, retryAtMs: 31_000, random: 0 })).toBe(30_000);
    expect(providerRetryDelayMs(1, { nowMs: 1_000, retryAtMs: 3_600_000, random: 0 })).toBe(PROVIDER_WAIT.maxDelayMs);
    expect(providerRetryDelayMs(3, { nowMs: 1_000, retryAtMs: 0, random: 0 })).toBe(15_000);
  });

  it('a shorter window (tests, the chaos run) gives up sooner', () => {
    const wait = { windowMs: 20_000, initialDelayMs: 2_000, maxDelayMs: 4_000 };
    expect(providerRetryDelayMs(1, { nowMs: 0, random: 0, wait })).toBe(1_500);
    expect(providerRetryDelayMs(providerAttempts(wait), { nowMs: 0, random: 0, wait })).toBeNull();
  });
});

describe('exponentialBackoffMs', () => {
  it('starts at the initial wait, multiplies per retry and stops at the cap', () => {
    const backoff = { initialMs: 500, factor: 2, maxMs: 10_000 };
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => exponentialBackoffMs(n, backoff))).toEqual([500, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000]);
  });
});
