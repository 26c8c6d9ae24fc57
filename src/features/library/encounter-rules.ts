/**
 * Encounters: each time the learner met one of their expressions on a page, as the extension
 * reports them (opt-in). Card id and time only, at most one per card per page view. Pure; no I/O
 * (./encounters.ts records them).
 */

/** How far ahead of the service's clock a client's time may be, and how old a batch's encounters may be. */
const ENCOUNTER_CLOCK_SKEW_MS = 5 * 60_000;
const ENCOUNTER_MAX_AGE_MS = 7 * 24 * 3_600_000;

export interface Encounter {
  cardId: string;
  metAt: Date;
}

/** Why an encounter's time is refused, or null. */
export function encounterTimeProblem(metAt: Date, now: Date): string | null {
  if (metAt.getTime() > now.getTime() + ENCOUNTER_CLOCK_SKEW_MS) return 'is in the future';
  if (metAt.getTime() < now.getTime() - ENCOUNTER_MAX_AGE_MS) return 'is more than 7 days old';
  return null;
}

/** One encounter per card of a page view: the first time it was met. */
export function onePerCard(encounters: readonly Encounter[]): Encounter[] {
  const first = new Map<string, Encounter>();
  for (const e of encounters) {
    const seen = first.get(e.cardId);
    if (!seen || e.metAt < seen.metAt) first.set(e.cardId, e);
  }
  return [...first.values()];
}

/** Whole seconds until the next UTC day, when the daily limit starts again (at least 1). */
export function secondsUntilNextUtcDay(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}
