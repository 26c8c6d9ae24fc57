/**
 * Maps Replay completion evidence to a spaced-repetition rating. Pure functions, no I/O.
 */
import { Rating } from 'ts-fsrs';

export interface ReplayEvidence {
  usedHint: boolean;
  autoFilled: boolean;
  unaidedErrors: number;
  /** How long the learner took over the item, when the client measured it. */
  durationMs?: number | undefined;
}

/** What the item asked of the learner: how much of the answer its mask hid. */
export interface ItemDemand {
  /** Characters hidden by the mask: the count of `_`. */
  hiddenCount: number;
  /** Share of the answer's letters hidden, in [0, 1]. */
  hiddenShare: number;
}

export type RatingName = 'again' | 'hard' | 'good' | 'easy';

/** Errors tolerated as "few" whatever the answer's length. */
const MIN_TOLERATED_ERRORS = 2;
/** Share of the letters that must have been hidden for a clean answer to rate easy. */
export const EASY_MIN_HIDDEN_SHARE = 0.9;
/** Time allowed for a fluent answer: a fixed part plus a part per hidden character. */
const FLUENT_BASE_MS = 4_000;
const FLUENT_MS_PER_HIDDEN = 800;

/**
 * Turns the evidence of one completed Replay item into a rating, checked in this order:
 *
 * 1. `autoFilled` is true → **again** (the service filled characters in: not recalled).
 * 2. `usedHint` is true → **hard**.
 * 3. `unaidedErrors` is more than 2 and more than 20 % of the hidden characters → **hard** (many errors).
 * 4. `unaidedErrors` is 1 or more (up to that limit) → **good** (few errors).
 * 5. `unaidedErrors` is 0 → **easy** only when the recall was whole and fluent: at least 90 % of
 *    the answer's letters were hidden and, when `durationMs` is given, the learner took at most
 *    4 s + 0.8 s per hidden character. Otherwise → **good**.
 *
 * So with 10 hidden characters, 1–2 errors rate good and 3 or more hard; with 20 hidden, up to 4
 * errors rate good and 5 or more hard. A clean answer with only the first letters shown (a new
 * card: about 75 % hidden) is good, not easy: the visible letters did part of the recall. The
 * same answer fully hidden is easy, unless it took longer than the fluent time (12 s for 10
 * hidden characters), which is effortful recall: good. `durationMs` never lowers a rating below
 * good, so a learner who left the page open is not punished for it.
 *
 * Throws a RangeError when `unaidedErrors`, `hiddenCount` or `durationMs` is not a non-negative
 * integer, or `hiddenShare` is outside [0, 1].
 */
export function ratingFromEvidence(evidence: ReplayEvidence, demand: ItemDemand): Rating {
  const errors = evidence.unaidedErrors;
  assertCount(errors, 'unaidedErrors');
  assertCount(demand.hiddenCount, 'hiddenCount');
  if (evidence.durationMs !== undefined) assertCount(evidence.durationMs, 'durationMs');
  if (!(demand.hiddenShare >= 0 && demand.hiddenShare <= 1)) throw new RangeError(`hiddenShare must be in [0, 1], got ${demand.hiddenShare}`);

  if (evidence.autoFilled) return Rating.Again;
  if (evidence.usedHint) return Rating.Hard;
  // errors > 20 % of the length, in integers so no float rounding decides a rating.
  const many = errors > MIN_TOLERATED_ERRORS && errors * 5 > demand.hiddenCount;
  if (many) return Rating.Hard;
  if (errors > 0) return Rating.Good;
  const whole = demand.hiddenShare >= EASY_MIN_HIDDEN_SHARE;
  const fluent = evidence.durationMs === undefined || evidence.durationMs <= FLUENT_BASE_MS + FLUENT_MS_PER_HIDDEN * demand.hiddenCount;
  return whole && fluent ? Rating.Easy : Rating.Good;
}

function assertCount(n: number, name: string): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${name} must be a non-negative integer, got ${n}`);
}

const NAMES: Partial<Record<Rating, RatingName>> = {
  [Rating.Again]: 'again',
  [Rating.Hard]: 'hard',
  [Rating.Good]: 'good',
  [Rating.Easy]: 'easy',
};

/** The API name of a rating. Throws a RangeError for `Rating.Manual`, which Replay never produces. */
export function ratingName(r: Rating): RatingName {
  const name = NAMES[r];
  if (name === undefined) throw new RangeError(`rating ${String(r)} has no Replay name`);
  return name;
}

/** Inverse of {@link ratingName}. */
export function ratingFromName(name: RatingName): Rating {
  switch (name) {
    case 'again':
      return Rating.Again;
    case 'hard':
      return Rating.Hard;
    case 'good':
      return Rating.Good;
    case 'easy':
      return Rating.Easy;
  }
}
