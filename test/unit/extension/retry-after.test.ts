import { describe, expect, it } from 'vitest';
import { retryAfterSeconds } from '../../../extension/src/shared/retry-after.ts';

const answer = (retryAfter?: string) => new Response(null, { status: 429, headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter } });

describe('retryAfterSeconds', () => {
  it('reads the seconds asked for, capped', () => {
    expect(retryAfterSeconds(answer('7'), 2)).toBe(7);
    expect(retryAfterSeconds(answer('0'), 2)).toBe(0);
    expect(retryAfterSeconds(answer('86400'), 2)).toBe(120);
    expect(retryAfterSeconds(answer('86400'), 2, Number.POSITIVE_INFINITY)).toBe(86_400);
  });

  it('falls back when the answer names no wait: a missing header is not "at once"', () => {
    expect(retryAfterSeconds(answer(), 60)).toBe(60);
    expect(retryAfterSeconds(answer('soon'), 60)).toBe(60);
    expect(retryAfterSeconds(undefined, 2)).toBe(2);
  });
});
