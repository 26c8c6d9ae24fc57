/**
 * When an answer counts as given: an answer made offline is sent later with the time it was given
 * (`answeredAt`), and the card is scheduled as of that time. Pure; no I/O (./service.ts applies it).
 */

/** How far ahead of the service's clock a device's time may be (taken as now), and how old an answer may be. */
const ANSWER_CLOCK_SKEW_MS = 60_000;
export const ANSWER_MAX_AGE_DAYS = 7;
const ANSWER_MAX_AGE_MS = ANSWER_MAX_AGE_DAYS * 86_400_000;

/** Why an answer's time is refused (400), or null: ahead of the clock, older than the limit, or before its session began. */
export function answerTimeProblem(answeredAt: Date, { now, sessionStartedAt }: { now: Date; sessionStartedAt: Date }): string | null {
  if (answeredAt.getTime() > now.getTime() + ANSWER_CLOCK_SKEW_MS) return 'is in the future';
  if (answeredAt.getTime() < now.getTime() - ANSWER_MAX_AGE_MS) return `is more than ${ANSWER_MAX_AGE_DAYS} days old`;
  if (answeredAt < sessionStartedAt) return 'is before the session began';
  return null;
}

/** The time the answer is recorded at: the device's time, never ahead of the service's clock. */
export const recordedAt = (answeredAt: Date | undefined, now: Date): Date => (answeredAt && answeredAt < now ? answeredAt : now);

/**
 * Why an answer sent later cannot count (409), or null: its item was answered at another time
 * (another device, or the learner online elsewhere), or its card was practised after that time,
 * so scheduling it now would rewrite a later review.
 */
export function answerConflict(answeredAt: Date, { completedAt, lastReview }: { completedAt: Date | null; lastReview: Date | null }): string | null {
  if (completedAt) return completedAt.getTime() === answeredAt.getTime() ? null : 'This item was answered at another time, on another device.';
  if (lastReview && lastReview > answeredAt) return 'This card was practised since, on another device.';
  return null;
}
