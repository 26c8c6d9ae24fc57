// Dates as the learner reads them: absolute in their locale, or relative to now.

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

export const formatDateTime = (iso: string) => dateFormat.format(new Date(iso));
export const formatDay = (iso: string) => dayFormat.format(new Date(iso));

/** "in 3 days", "10 minutes ago": the largest unit that fits. */
export function fromNow(iso: string, now = Date.now()): string {
  const seconds = (new Date(iso).getTime() - now) / 1000;
  for (const [unit, size] of [
    ['day', 86400],
    ['hour', 3600],
    ['minute', 60],
  ] as const) {
    // 59.6 s reads better as "in 1 minute" than as "in 60 seconds".
    if (Math.abs(seconds) >= size * 0.9) return relative.format(Math.round(seconds / size), unit);
  }
  return relative.format(Math.round(seconds), 'second');
}

/** When something falls due: a time already passed is due now, never "3 seconds ago". */
export function dueFromNow(iso: string, now = Date.now()): string {
  return new Date(iso).getTime() <= now ? 'now' : fromNow(iso, now);
}
