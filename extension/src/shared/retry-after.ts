/** Seconds the answer asks to wait (Retry-After, at most `cap`), or `fallback` when it names none. */
export function retryAfterSeconds(response: Response | undefined, fallback: number, cap = 120): number {
  // Number(null) is 0: a missing header must not read as "at once".
  const header = response?.headers.get('retry-after');
  const value = header ? Number(header) : NaN;
  return Number.isFinite(value) && value >= 0 ? Math.min(value, cap) : fallback;
}
