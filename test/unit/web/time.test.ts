import { describe, expect, it } from 'vitest';
import { dueFromNow, fromNow } from '../../../web/src/time.ts';

const now = Date.parse('2026-11-23T12:00:00Z');
const at = (seconds: number) => new Date(now + seconds * 1000).toISOString();

describe('relative times', () => {
  it('uses the largest unit that fits', () => {
    expect(fromNow(at(3 * 86400), now)).toBe('in 3 days');
    expect(fromNow(at(59.6), now)).toBe('in 1 minute');
    expect(fromNow(at(-7200), now)).toBe('2 hours ago');
  });

  it('says a card whose due time has passed is due now', () => {
    expect(dueFromNow(at(-3), now)).toBe('now');
    expect(dueFromNow(at(-5 * 86400), now)).toBe('now');
    expect(dueFromNow(at(0), now)).toBe('now');
    expect(dueFromNow(at(600), now)).toBe('in 10 minutes');
  });
});
