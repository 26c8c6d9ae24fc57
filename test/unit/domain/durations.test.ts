import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../../src/domain/durations.ts';

describe('parseDuration', () => {
  it.each([
    ['30m', 1_800_000],
    ['1h', 3_600_000],
    ['24h', 86_400_000],
    ['7d', 604_800_000],
    [' 2h ', 7_200_000],
  ])('%s → %d ms', (text, ms) => expect(parseDuration(text)).toBe(ms));

  it.each(['', '0h', '1', 'h', '1.5h', '-1h', '1w', '1h30m', '9999999d'])('refuses %j', (text) => expect(parseDuration(text)).toBeNull());
});
