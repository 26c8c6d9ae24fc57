/**
 * The rules of a learner's personal FSRS optimisation, apart from the optimiser itself
 * (fsrs-rs through @open-spaced-repetition/binding, called by src/features/replay/optimiser.ts):
 * how the review log becomes training items, when there is enough of it, how reviews are held
 * out, and when fitted weights may replace the ones in use.
 */
import { dateDiffInDays } from 'ts-fsrs';
import { type RatingName } from '../../domain/replay-rating.ts';

/** FSRS's grade numbers, as the optimiser reads them. */
const GRADE: Record<RatingName, 1 | 2 | 3 | 4> = { again: 1, hard: 2, good: 3, easy: 4 };

/** One review in the optimiser's terms: the grade and whole UTC days since the card's previous review (0 for the first). */
interface OptimiserReview {
  rating: 1 | 2 | 3 | 4;
  deltaT: number;
}

/** A card's history up to one review, which the model must predict from those before it. */
export interface TrainingItem {
  reviews: OptimiserReview[];
  /** When the predicted (last) review happened: the held-out split is by time. */
  reviewedAt: Date;
}

export interface LoggedReview {
  cardId: string;
  rating: RatingName;
  reviewedAt: Date;
}

/**
 * Fewer long-term reviews than this and the fitted weights would follow noise: FSRS's authors
 * recommend several hundred. A long-term review is one at least a day after the card's previous one.
 */
export const MIN_LONG_TERM_REVIEWS = 300;

/** The most recent share of items, by review time, that judges fitted weights against the ones in use. */
const HELD_OUT_SHARE = 0.2;

/**
 * Every card's history as training items, FSRS's way: one item per review after a card's first,
 * holding every review of the card up to it. Days are UTC calendar days, as the scheduler counts them.
 */
export function trainingItems(log: readonly LoggedReview[]): TrainingItem[] {
  const byCard = new Map<string, LoggedReview[]>();
  for (const review of log) {
    const reviews = byCard.get(review.cardId);
    if (reviews) reviews.push(review);
    else byCard.set(review.cardId, [review]);
  }
  const items: TrainingItem[] = [];
  for (const reviews of byCard.values()) {
    reviews.sort((a, b) => a.reviewedAt.getTime() - b.reviewedAt.getTime());
    const history = reviews.map((review, i): OptimiserReview => ({
      rating: GRADE[review.rating],
      deltaT: i === 0 ? 0 : dateDiffInDays(reviews[i - 1]!.reviewedAt, review.reviewedAt),
    }));
    for (let end = 1; end < history.length; end++) {
      items.push({ reviews: history.slice(0, end + 1), reviewedAt: reviews[end]!.reviewedAt });
    }
  }
  return items;
}

/**
 * Whether fsrs-rs accepts an item: it needs a review on a later day than the card's first. It
 * does not refuse an item of same-day reviews (learning steps) with an error, it aborts the whole
 * process, so no such item may ever reach it.
 */
export const trainable = (item: TrainingItem): boolean => item.reviews.some((review) => review.deltaT > 0);

/** Items whose predicted review came at least a day after the one before: what the optimiser learns from. */
export const longTermReviewCount = (items: readonly TrainingItem[]): number => items.filter((item) => item.reviews[item.reviews.length - 1]!.deltaT > 0).length;

/**
 * Splits by time, not at random: the weights are judged on reviews that came after every review
 * they were fitted on, as they will be used. Ties in time stay on one side.
 */
export function splitHeldOut<T extends { reviewedAt: Date }>(items: readonly T[], heldOutShare = HELD_OUT_SHARE): { train: T[]; heldOut: T[] } {
  const sorted = [...items].sort((a, b) => a.reviewedAt.getTime() - b.reviewedAt.getTime());
  let cut = Math.floor(sorted.length * (1 - heldOutShare));
  while (cut > 0 && cut < sorted.length && sorted[cut]!.reviewedAt.getTime() === sorted[cut - 1]!.reviewedAt.getTime()) cut--;
  return { train: sorted.slice(0, cut), heldOut: sorted.slice(cut) };
}

/**
 * Whether a held-out item can judge weights: a review a day or more after the one before, predicted
 * from a history with a review on an earlier day. fsrs-rs refuses to evaluate a set holding
 * anything else (NotEnoughData when the history is all from the card's first day, InvalidInput
 * for a same-day prediction).
 */
export const judgeable = (item: TrainingItem): boolean =>
  item.reviews[item.reviews.length - 1]!.deltaT > 0 && item.reviews.slice(0, -1).some((review) => review.deltaT > 0);

export interface Evaluation {
  logLoss: number;
  rmse: number;
}

/** New weights replace the ones in use only when they predict the held-out reviews better, by both measures. */
export const beats = (fitted: Evaluation, current: Evaluation): boolean => fitted.logLoss < current.logLoss && fitted.rmse <= current.rmse;

/** One fit as stored: its held-out figures beside those of the weights in use when it ran. */
export interface FittedParameters extends Evaluation {
  version: number;
  /** Training items (reviews after a card's first) the fit and its judgement came from. */
  logSize: number;
  baselineLogLoss: number;
  baselineRmse: number;
  /** Whether the scheduler uses these weights (they beat the ones in use). */
  applied: boolean;
  fittedAt: string;
}

export type OptimisationOutcome = { outcome: 'too_few_reviews'; longTermReviews: number } | ({ outcome: 'applied' | 'kept' } & FittedParameters);

/**
 * The unit of work of one optimisation: a learner's log as of its size and latest review. Fitting
 * the same log twice would give the same weights, so its workflow id refuses a second run.
 */
export const optimisationKey = (userId: string, reviewCount: number, latestReviewAt: Date | null): string =>
  `${userId}/${reviewCount}-${latestReviewAt?.getTime() ?? 0}`;
