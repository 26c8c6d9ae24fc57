import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FORECAST_DAYS, buildForecast, utcDay } from '../../../../src/features/replay/forecast-rules.ts';

const now = new Date('2026-03-10T22:30:00Z');

describe('buildForecast', () => {
  it('gives 14 UTC days from today, zeros where nothing falls due', () => {
    const f = buildForecast([], 0, null, now);
    expect(f.days).toHaveLength(FORECAST_DAYS);
    expect(f.days[0]).toEqual({ date: '2026-03-10', due: 0 });
    expect(f.days[13]).toEqual({ date: '2026-03-23', due: 0 });
    expect(f).toMatchObject({ dueNow: 0, nextDueAt: null });
  });

  it('counts overdue days for today and ignores days after the window', () => {
    const next = new Date('2026-03-10T23:00:00Z');
    const f = buildForecast(
      [
        { date: '2026-02-01', due: 3 },
        { date: '2026-03-09', due: 2 },
        { date: '2026-03-10', due: 1 },
        { date: '2026-03-12', due: 4 },
        { date: '2026-03-24', due: 9 },
      ],
      5,
      next,
      now,
    );
    expect(f.dueNow).toBe(5);
    expect(f.nextDueAt).toBe(next);
    expect(f.days.slice(0, 3).map((d) => d.due)).toEqual([6, 0, 4]);
    expect(f.days.reduce((n, d) => n + d.due, 0)).toBe(10);
  });

  it('crosses month and year ends on UTC days', () => {
    const f = buildForecast([{ date: '2027-01-01', due: 1 }], 0, null, new Date('2026-12-31T23:59:59Z'));
    expect(f.days.slice(0, 2)).toEqual([
      { date: '2026-12-31', due: 0 },
      { date: '2027-01-01', due: 1 },
    ]);
  });

  it('rejects malformed input', () => {
    expect(() => buildForecast([{ date: '10/03/2026', due: 1 }], 0, null, now)).toThrow(RangeError);
    expect(() => buildForecast([{ date: '2026-03-10', due: -1 }], 0, null, now)).toThrow(RangeError);
    expect(() => buildForecast([{ date: '2026-03-10', due: 1.5 }], 0, null, now)).toThrow(RangeError);
  });

  it('keeps every card due within the window, each in its own day', () => {
    const dayArb = fc.integer({ min: -30, max: 30 }).map((d) => utcDay(new Date(now.getTime() + d * 86_400_000)));
    fc.assert(
      fc.property(fc.array(fc.record({ date: dayArb, due: fc.nat({ max: 50 }) }), { maxLength: 40 }), (perDay) => {
        const f = buildForecast(perDay, 0, null, now);
        const inWindow = perDay.filter((d) => d.date <= f.days[FORECAST_DAYS - 1]!.date).reduce((n, d) => n + d.due, 0);
        expect(f.days.reduce((n, d) => n + d.due, 0)).toBe(inWindow);
        expect(new Set(f.days.map((d) => d.date)).size).toBe(FORECAST_DAYS);
      }),
      { numRuns: 500 },
    );
  });
});
