import { describe, expect, it } from 'vitest';
import { BREAKER_DEFAULTS, openPeriodMs, opensOnFailure } from '../../../src/domain/circuit-breaker.ts';

describe('opensOnFailure', () => {
  it('opens a closed breaker at the threshold of failures in a row, and a half-open one at its probe’s failure', () => {
    expect(opensOnFailure('closed', BREAKER_DEFAULTS.threshold - 1)).toBe(false);
    expect(opensOnFailure('closed', BREAKER_DEFAULTS.threshold)).toBe(true);
    expect(opensOnFailure('half_open', 1)).toBe(true);
    expect(opensOnFailure('open', 100)).toBe(false); // open already
  });
});

describe('openPeriodMs', () => {
  it('is the same short period at every reopening, ±20 %, so that work resumes soon after the provider does', () => {
    expect(openPeriodMs({ openMs: 5_000, random: 0.5 })).toBe(5_000);
    expect(openPeriodMs({ openMs: 5_000, random: 0 })).toBe(4_000);
    expect(openPeriodMs({ openMs: 5_000, random: 0.999_999 })).toBeLessThanOrEqual(6_000);
  });

  it("is never shorter than the provider's own Retry-After (up to the cap)", () => {
    expect(openPeriodMs({ openMs: 5_000, random: 0.5, retryAfterMs: 30_000 })).toBe(30_000);
    expect(openPeriodMs({ openMs: 5_000, random: 0.5, retryAfterMs: 3_600_000 })).toBe(60_000);
  });
});
