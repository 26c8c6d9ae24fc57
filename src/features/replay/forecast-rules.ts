/**
 * The Replay workload ahead: how many reviewed cards are due now, when the next one falls due, and
 * how many fall due on each of the coming days. Pure; the SQL only counts cards per UTC day.
 */

/** Days a forecast covers, today included. */
export const FORECAST_DAYS = 14;

export interface DueDay {
  /** A UTC calendar day, `YYYY-MM-DD`. */
  date: string;
  due: number;
}

export interface ReplayForecast {
  /** Reviewed cards due at `now` (overdue included). */
  dueNow: number;
  /** The earliest due time after `now`, or null when no reviewed card is waiting. */
  nextDueAt: Date | null;
  /** One entry per UTC day from today, `FORECAST_DAYS` of them. Today counts every card due by its end, overdue ones included. */
  days: DueDay[];
}

/**
 * Builds the forecast from the number of cards falling due per UTC day (days before today are
 * overdue and count for today; days after the window are ignored; days without cards are 0).
 * Throws a RangeError for a malformed day or a count that is not a non-negative integer.
 */
export function buildForecast(perDay: readonly DueDay[], dueNow: number, nextDueAt: Date | null, now: Date, days: number = FORECAST_DAYS): ReplayForecast {
  const today = utcDay(now);
  const window = Array.from({ length: days }, (_, i) => ({ date: utcDay(new Date(now.getTime() + i * 86_400_000)), due: 0 }));
  const index = new Map(window.map((d, i) => [d.date, i]));
  for (const { date, due } of perDay) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new RangeError(`not a day: ${date}`);
    if (!Number.isSafeInteger(due) || due < 0) throw new RangeError(`not a count: ${due}`);
    const i = date < today ? 0 : index.get(date);
    if (i !== undefined) window[i]!.due += due;
  }
  return { dueNow, nextDueAt, days: window };
}

/** The UTC calendar day of an instant, `YYYY-MM-DD`. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}
