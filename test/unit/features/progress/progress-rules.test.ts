import { describe, expect, it } from 'vitest';
import { addDays, currentStreak, daysFrom, fillDays, trueRetention, weekOf, weeklyRetention } from '../../../../src/features/progress/progress-rules.ts';

describe('learner days', () => {
  it('moves across months, leap days and years', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(daysFrom('2026-10-24', 3)).toEqual(['2026-10-24', '2026-10-25', '2026-10-26']);
    expect(() => addDays('26-1-1', 1)).toThrow(RangeError);
  });

  it('finds the Monday of a week', () => {
    expect(weekOf('2026-11-26')).toBe('2026-11-23'); // a Thursday
    expect(weekOf('2026-11-23')).toBe('2026-11-23');
    expect(weekOf('2026-11-29')).toBe('2026-11-23'); // a Sunday
  });

  it('fills the days without rows', () => {
    expect(fillDays(['a', 'b', 'c'], [{ date: 'b', n: 2 }], (date) => ({ date, n: 0 }))).toEqual([
      { date: 'a', n: 0 },
      { date: 'b', n: 2 },
      { date: 'c', n: 0 },
    ]);
  });
});

describe('currentStreak', () => {
  const active = new Set(['2026-05-16', '2026-05-18', '2026-05-19', '2026-05-20']);
  it('counts back from today', () => expect(currentStreak(active, '2026-05-20')).toBe(3));
  it('counts from yesterday while today has no review yet', () => expect(currentStreak(active, '2026-05-21')).toBe(3));
  it('is 0 once a whole day has passed without one', () => expect(currentStreak(active, '2026-05-22')).toBe(0));
  it('crosses a month', () => expect(currentStreak(new Set(['2026-04-30', '2026-05-01']), '2026-05-01')).toBe(2));
});

describe('true retention', () => {
  const day = (date: string, yp: number, yf: number, mp: number, mf: number) => ({
    date,
    youngPassed: yp,
    youngFailed: yf,
    maturePassed: mp,
    matureFailed: mf,
  });

  it('is the share recalled, by card age and in all; null without reviews', () => {
    expect(trueRetention([day('2026-01-01', 3, 1, 0, 0), day('2026-01-02', 1, 0, 9, 1)])).toEqual({ young: 4 / 5, mature: 9 / 10, all: 13 / 15, reviews: 15 });
    expect(trueRetention([])).toEqual({ young: null, mature: null, all: null, reviews: 0 });
  });

  it('groups by Monday weeks, oldest first', () => {
    const weeks = weeklyRetention([day('2026-11-30', 1, 1, 0, 0), day('2026-11-29', 1, 0, 0, 0), day('2026-11-23', 0, 1, 0, 0)]);
    expect(weeks).toEqual([
      { week: '2026-11-23', young: 0.5, mature: null, all: 0.5, reviews: 2 },
      { week: '2026-11-30', young: 0.5, mature: null, all: 0.5, reviews: 2 },
    ]);
  });
});
