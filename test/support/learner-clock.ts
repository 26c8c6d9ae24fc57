/**
 * The learner's day starts at 4 am in their time zone (src/features/progress/reads.ts). A test whose
 * answer depends on which learner day "now" falls on takes the learner's zone from here: in an
 * ordinary run, a zone where the test's instant is mid-day, so no run straddles the day change; in the
 * day-change projects (vitest.config.ts), the far zone below, with this process's clock set just before
 * or just after 4 am there (day-change-setup.ts), so the same checks run on both sides of the change.
 */

/** UTC+14 all year, no DST: its learner day is never the UTC day, so a UTC-day mistake shows. */
const DAY_CHANGE_ZONE = 'Pacific/Kiritimati';
const DAY_CHANGE_ZONE_OFFSET_MS = 14 * 3_600_000;
const DAY_MS = 86_400_000;

/** The local time (HH:MM:SS in DAY_CHANGE_ZONE) a day-change project runs each test at, or undefined. */
export const dayChangeTime: string | undefined = process.env.LCS_DAY_CHANGE_AT;

/** The learner's time zone for a test at `at`: the day-change zone in a day-change run, else one where `at` is between noon and 1 pm. */
export function learnerZone(at = new Date()): string {
  if (dayChangeTime) return DAY_CHANGE_ZONE;
  const offsetHours = 12 - at.getUTCHours();
  // POSIX signs, as the tz database keeps them: Etc/GMT-3 is UTC+3. Etc/ zones have no DST.
  return offsetHours === 0 ? 'Etc/GMT' : `Etc/GMT${offsetHours > 0 ? '-' : '+'}${Math.abs(offsetHours)}`;
}

/**
 * The latest instant at or before `realNow` at which DAY_CHANGE_ZONE's clock reads `time` (HH:MM:SS):
 * in the past, so this process's clock is never ahead of PostgreSQL's (checks such as "not ahead of
 * the clock" compare the two).
 */
export function lastInstantAt(time: string, realNow = Date.now()): Date {
  const [hours = 0, minutes = 0, seconds = 0] = time.split(':').map(Number);
  const localNow = realNow + DAY_CHANGE_ZONE_OFFSET_MS;
  let local = Math.floor(localNow / DAY_MS) * DAY_MS + ((hours * 60 + minutes) * 60 + seconds) * 1000;
  if (local > localNow) local -= DAY_MS;
  return new Date(local - DAY_CHANGE_ZONE_OFFSET_MS);
}
