/**
 * Rate limits as the generic cell rate algorithm (GCRA), a token bucket kept as one timestamp:
 * `limit` requests at once at most, refilled evenly over `periodMs` (one every `periodMs / limit`).
 * Unlike fixed windows, a client cannot spend a whole window's budget at the end of one window
 * and again at the start of the next. The state is the theoretical arrival time (TAT): the moment
 * the bucket would be full again; no state, or a TAT in the past, is a full bucket.
 */
export interface Quota {
  limit: number;
  periodMs: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests that would still be allowed right now. */
  remaining: number;
  /** Until the bucket is full again. */
  resetMs: number;
  /** Until the next request would be allowed (0 when this one was). */
  retryAfterMs: number;
}

export const emissionMs = (quota: Quota) => quota.periodMs / quota.limit;

/** One request against the bucket: whether it fits, and the TAT to store (unchanged when refused). */
export function takeFromBucket(tat: number | null, now: number, quota: Quota): { allowed: boolean; tat: number } {
  const start = Math.max(tat ?? now, now);
  const next = start + emissionMs(quota);
  return next - now <= quota.periodMs ? { allowed: true, tat: next } : { allowed: false, tat: start };
}

/** What the stored TAT means for the client (RateLimit-* and Retry-After headers). */
export function describeBucket(tat: number, now: number, allowed: boolean, quota: Quota): RateLimitDecision {
  const emission = emissionMs(quota);
  const ahead = Math.max(0, tat - now);
  // A hair of tolerance: PostgreSQL's microsecond timestamps make an exact multiple come back a little short.
  const remaining = Math.max(0, Math.floor((quota.periodMs - ahead) / emission + 1e-6));
  const retryAfterMs = allowed ? 0 : Math.max(0, ahead + emission - quota.periodMs);
  return { allowed, limit: quota.limit, remaining, resetMs: ahead, retryAfterMs };
}

/**
 * Up to `want` requests from the bucket at once, leaving at least `reserve` of it for others: what
 * an import takes from the learner's model budget, so that an interactive capture during it is
 * still allowed (issue 26). Returns what was granted, the TAT to store, and how long until one more
 * would be granted.
 */
export function takeUpTo(tat: number | null, now: number, quota: Quota, want: number, reserve: number): { granted: number; tat: number; nextInMs: number } {
  const emission = emissionMs(quota);
  const start = Math.max(tat ?? now, now);
  const free = Math.floor((now + quota.periodMs - start) / emission + 1e-6);
  const granted = Math.max(0, Math.min(want, free - reserve));
  const next = start + granted * emission;
  const nextInMs = Math.max(0, next + (reserve + 1) * emission - quota.periodMs - now);
  return { granted, tat: next, nextInMs };
}
