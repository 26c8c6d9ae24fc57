import { computeParameters, FSRSBinding, FSRSBindingItem, FSRSBindingReview } from '@open-spaced-repetition/binding';
import { default_w } from 'ts-fsrs';
import {
  beats,
  judgeable,
  longTermReviewCount,
  MIN_LONG_TERM_REVIEWS,
  splitHeldOut,
  trainable,
  type Evaluation,
  type TrainingItem,
} from './optimisation-rules.ts';

export type FitJudgement =
  | { outcome: 'too_few_reviews'; longTermReviews: number }
  | {
      outcome: 'fitted';
      weights: number[];
      fitted: Evaluation;
      baseline: Evaluation;
      /** ts-fsrs' default weights on the same held-out reviews: what the learner gained by fitting at all. */
      defaults: Evaluation;
      applied: boolean;
      logSize: number;
      trainSize: number;
      heldOutSize: number;
    };

const toBinding = (items: readonly TrainingItem[]) =>
  items.map((item) => new FSRSBindingItem(item.reviews.map((r) => new FSRSBindingReview(r.rating, r.deltaT))));

function evaluate(weights: readonly number[], items: FSRSBindingItem[]): Evaluation {
  const { logLoss, rmseBins } = new FSRSBinding([...weights]).evaluate(items);
  return { logLoss, rmse: rmseBins };
}

/**
 * Fits FSRS weights with fsrs-rs on all but the most recent reviews and judges them, and the
 * weights in use (ts-fsrs' defaults when null), on those: the optimiser's whole rule, without
 * storage, so the worker and the bench's simulator run the same one.
 */
export async function fitAndJudge(items: readonly TrainingItem[], current: readonly number[] | null): Promise<FitJudgement> {
  const longTermReviews = longTermReviewCount(items);
  if (longTermReviews < MIN_LONG_TERM_REVIEWS) return { outcome: 'too_few_reviews', longTermReviews };
  const { train, heldOut } = splitHeldOut(items.filter(trainable));
  const judged = heldOut.filter(judgeable);
  if (judged.length === 0) return { outcome: 'too_few_reviews', longTermReviews };
  const weights = await computeParameters(toBinding(train), { enableShortTerm: true });
  const testSet = toBinding(judged);
  const fitted = evaluate(weights, testSet);
  const defaults = evaluate(default_w, testSet);
  const baseline = current ? evaluate(current, testSet) : defaults;
  return {
    outcome: 'fitted',
    weights,
    fitted,
    baseline,
    defaults,
    applied: beats(fitted, baseline),
    logSize: train.length + heldOut.length,
    trainSize: train.length,
    heldOutSize: heldOut.length,
  };
}
