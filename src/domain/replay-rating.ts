/**
 * Maps Replay completion evidence to a spaced-repetition rating. Pure functions, no I/O.
 */
import { Rating } from 'ts-fsrs';

export interface ReplayEvidence {
  usedHint: boolean;
  autoFilled: boolean;
  unaidedErrors: number;
}

export type RatingName = 'again' | 'hard' | 'good' | 'easy';

/** Errors tolerated as "few" whatever the answer's length. */
export const MIN_TOLERATED_ERRORS = 2;

/**
 * Turns the evidence of one completed Replay item into a rating, checked in this order:
 *
 * 1. `autoFilled` is true → **again** (the service filled characters in: not recalled).
 * 2. `usedHint` is true → **hard**.
 * 3. `unaidedErrors` is more than 2 and more than 20 % of `answerLength` → **hard** (many errors).
 * 4. `unaidedErrors` is 1 or more (up to that limit) → **good** (few errors).
 * 5. `unaidedErrors` is 0 → **easy**.
 *
 * `answerLength` is the number of characters the learner had to reconstruct: the count of `_`
 * in the item's mask. So with 10 hidden characters, 1–2 errors rate good and 3 or more hard;
 * with 20 hidden, up to 4 errors rate good and 5 or more hard.
 *
 * Throws a RangeError when `unaidedErrors` or `answerLength` is not a non-negative integer.
 */
export function ratingFromEvidence(evidence: ReplayEvidence, answerLength: number): Rating {
  const errors = evidence.unaidedErrors;
  if (!Number.isSafeInteger(errors) || errors < 0) {
    throw new RangeError(`unaidedErrors must be a non-negative integer, got ${errors}`);
  }
  if (!Number.isSafeInteger(answerLength) || answerLength < 0) {
    throw new RangeError(`answerLength must be a non-negative integer, got ${answerLength}`);
  }
  if (evidence.autoFilled) return Rating.Again;
  if (evidence.usedHint) return Rating.Hard;
  // errors > 20 % of the length, in integers so no float rounding decides a rating.
  const many = errors > MIN_TOLERATED_ERRORS && errors * 5 > answerLength;
  if (many) return Rating.Hard;
  return errors > 0 ? Rating.Good : Rating.Easy;
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
