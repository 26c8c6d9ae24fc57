import { describe, expect, it } from 'vitest';
import { ACTIVITY_RETRY, exponentialBackoffMs, failureKind, mayRetry, retryWindowMs } from '../../../src/domain/retry-policy.ts';

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

  it('retries a provider outage for a few attempts and infrastructure for many', () => {
    expect(mayRetry('provider', ACTIVITY_RETRY.providerAttempts - 1)).toBe(true);
    expect(mayRetry('provider', ACTIVITY_RETRY.providerAttempts)).toBe(false);
    expect(mayRetry('infrastructure', ACTIVITY_RETRY.infrastructureAttempts - 1)).toBe(true);
    expect(mayRetry('infrastructure', ACTIVITY_RETRY.infrastructureAttempts)).toBe(false);
  });

  it('waits out a database outage of minutes, and a provider outage of about 15 seconds', () => {
    // The chaos campaign's 15 s and 20 s database outages failed work whose budget was ~7 s.
    expect(retryWindowMs(ACTIVITY_RETRY.infrastructureAttempts)).toBeGreaterThanOrEqual(9 * 60_000);
    expect(retryWindowMs(ACTIVITY_RETRY.providerAttempts)).toBe(1_000 + 2_000 + 4_000 + 8_000);
    expect(retryWindowMs(1)).toBe(0);
  });
});

describe('exponentialBackoffMs', () => {
  it('starts at the initial wait, multiplies per retry and stops at the cap', () => {
    const backoff = { initialMs: 500, factor: 2, maxMs: 10_000 };
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => exponentialBackoffMs(n, backoff))).toEqual([500, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000]);
  });
});
