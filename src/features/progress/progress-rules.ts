/**
 * The Progress screen's pure parts: learner days as `YYYY-MM-DD` (the SQL says which day an instant
 * falls on, in the learner's time zone, from 4 am), windows of days, streaks and true retention.
 */

/** A learner day, `YYYY-MM-DD`. */
export type Day = string;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** `day` moved by `n` calendar days (n may be negative). */
export function addDays(day: Day, n: number): Day {
  if (!DAY.test(day)) throw new RangeError(`not a day: ${day}`);
  const at = new Date(`${day}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + n);
  return at.toISOString().slice(0, 10);
}

/** `count` consecutive days from `first`. */
export const daysFrom = (first: Day, count: number): Day[] => Array.from({ length: count }, (_, i) => addDays(first, i));

/** The Monday of `day`'s week. */
export function weekOf(day: Day): Day {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay(); // 0 = Sunday
  return addDays(day, -((weekday + 6) % 7));
}

/** One entry per day of `days`, from `rows` where there is one, else `empty(day)`. */
export function fillDays<T extends { date: Day }>(days: readonly Day[], rows: readonly T[], empty: (date: Day) => T): T[] {
  const byDay = new Map(rows.map((row) => [row.date, row]));
  return days.map((date) => byDay.get(date) ?? empty(date));
}

/**
 * Consecutive days with a review, ending today, or yesterday while today has none yet (a streak is
 * not broken before the day is over).
 */
export function currentStreak(activeDays: ReadonlySet<Day>, today: Day): number {
  let day = activeDays.has(today) ? today : addDays(today, -1);
  let streak = 0;
  while (activeDays.has(day)) {
    streak++;
    day = addDays(day, -1);
  }
  return streak;
}

/** Reviews of cards scheduled a day or more before, as Anki counts true retention: young 1–20 days, mature 21+. */
export interface RetentionCounts {
  youngPassed: number;
  youngFailed: number;
  maturePassed: number;
  matureFailed: number;
}

export interface TrueRetention {
  young: number | null;
  mature: number | null;
  all: number | null;
  /** Reviews counted (young and mature). */
  reviews: number;
}

const share = (passed: number, failed: number) => (passed + failed > 0 ? passed / (passed + failed) : null);

/** The share recalled, by card age and in all; null where nothing was reviewed. */
export function trueRetention(rows: readonly RetentionCounts[]): TrueRetention {
  const t = rows.reduce(
    (a, r) => ({
      youngPassed: a.youngPassed + r.youngPassed,
      youngFailed: a.youngFailed + r.youngFailed,
      maturePassed: a.maturePassed + r.maturePassed,
      matureFailed: a.matureFailed + r.matureFailed,
    }),
    { youngPassed: 0, youngFailed: 0, maturePassed: 0, matureFailed: 0 },
  );
  return {
    young: share(t.youngPassed, t.youngFailed),
    mature: share(t.maturePassed, t.matureFailed),
    all: share(t.youngPassed + t.maturePassed, t.youngFailed + t.matureFailed),
    reviews: t.youngPassed + t.youngFailed + t.maturePassed + t.matureFailed,
  };
}

/** True retention per week (Monday first), oldest first, for the weeks `days` cover. */
export function weeklyRetention<T extends RetentionCounts & { date: Day }>(days: readonly T[]): Array<TrueRetention & { week: Day }> {
  const weeks = new Map<Day, T[]>();
  for (const day of days) {
    const week = weekOf(day.date);
    weeks.set(week, [...(weeks.get(week) ?? []), day]);
  }
  return [...weeks.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([week, rows]) => ({ week, ...trueRetention(rows) }));
}
