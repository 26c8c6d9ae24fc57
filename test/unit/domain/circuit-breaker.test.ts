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
  it('doubles per reopening in a row, up to a minute, ±20 %', () => {
    const periods = (random: number) => [0, 1, 2, 3, 4, 10].map((n) => openPeriodMs(n, { openMs: 5_000, random }));
    expect(periods(0.5)).toEqual([5_000, 10_000, 20_000, 40_000, 60_000, 60_000]);
    expect(periods(0)).toEqual([4_000, 8_000, 16_000, 32_000, 48_000, 48_000]);
    expect(Math.max(...periods(0.999_999))).toBeLessThanOrEqual(72_000);
  });

  it("is never shorter than the provider's own Retry-After (up to the cap)", () => {
    expect(openPeriodMs(0, { openMs: 5_000, random: 0.5, retryAfterMs: 30_000 })).toBe(30_000);
    expect(openPeriodMs(0, { openMs: 5_000, random: 0.5, retryAfterMs: 3_600_000 })).toBe(60_000);
  });
});
