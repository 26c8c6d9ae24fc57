import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeBucket, takeFromBucket, type Quota } from '../../../src/domain/rate-limit.ts';

/** Sends requests at the given times (ms) and returns which were allowed. */
function run(quota: Quota, times: number[]): boolean[] {
  let tat: number | null = null;
  return times.map((now) => {
    const step = takeFromBucket(tat, now, quota);
    tat = step.tat;
    return step.allowed;
  });
}

describe('GCRA bucket', () => {
  const quota = { limit: 10, periodMs: 60_000 };

  it('allows a burst of `limit`, then one request per period / limit', () => {
    expect(run(quota, Array(12).fill(0))).toEqual([...Array(10).fill(true), false, false]);
    expect(run(quota, [...Array(10).fill(0), 5_999, 6_000])).toEqual([...Array(10).fill(true), false, true]);
  });

  it('does not double the burst at what would be a fixed window’s edge', () => {
    const allowed = run(quota, [...Array(10).fill(59_999), ...Array(10).fill(60_001)]);
    // Fixed minute windows would allow all 20; 2 ms later the bucket has not refilled at all.
    expect(allowed.filter(Boolean)).toHaveLength(10);
  });

  it('never allows more than limit + elapsed × rate in any stretch of time (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 200_000 }), { maxLength: 300 }), (offsets) => {
        const times = [...offsets].sort((a, b) => a - b);
        const allowed = run(quota, times);
        const at = times.filter((_, i) => allowed[i]);
        for (let i = 0; i < at.length; i++) {
          for (let j = i; j < at.length; j++) {
            expect(j - i + 1).toBeLessThanOrEqual(quota.limit + Math.floor((at[j]! - at[i]!) / 6_000));
          }
        }
      }),
    );
  });

  it('describes the bucket for the RateLimit-* and Retry-After headers', () => {
    const first = takeFromBucket(null, 0, quota);
    expect(describeBucket(first.tat, 0, true, quota)).toEqual({ allowed: true, limit: 10, remaining: 9, resetMs: 6_000, retryAfterMs: 0 });
    expect(describeBucket(60_000, 0, false, quota)).toEqual({ allowed: false, limit: 10, remaining: 0, resetMs: 60_000, retryAfterMs: 6_000 });
    expect(describeBucket(-5, 0, true, quota).remaining).toBe(10);
  });
});
