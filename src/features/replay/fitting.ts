import { computeParameters, FSRSBinding, FSRSBindingItem, FSRSBindingReview } from '@open-spaced-repetition/binding';
import { default_w } from 'ts-fsrs';
import type { Em } from '../../db/orm.ts';
import {
  beats, judgeable, longTermReviewCount, MIN_LONG_TERM_REVIEWS, splitHeldOut, trainingItems, type Evaluation, type LoggedReview,
  type OptimisationOutcome, type TrainingItem,
} from '../../domain/fsrs-optimisation.ts';
import type { RatingName } from '../../domain/replay-rating.ts';
import { FITTED_COLUMNS, fittedOf, type FittedRow } from './optimiser.ts';

/**
 * A learner's own FSRS weights, fitted on their review log by fsrs-rs (the binding), in the
 * worker only. A fit is stored as a new version either way, and applied (read by
 * learnerScheduling) only when it beats the weights in use on the learner's most recent reviews,
 * held out of the fit.
 */

async function reviewLog(em: Em, userId: string): Promise<LoggedReview[]> {
  const rows = await em.execute<{ card_id: string; rating: RatingName; reviewed_at: Date }[]>(
    `SELECT card_id, rating, reviewed_at FROM review_logs WHERE user_id = ? ORDER BY reviewed_at, id`, [userId],
  );
  return rows.map((row) => ({ cardId: row.card_id, rating: row.rating, reviewedAt: new Date(row.reviewed_at) }));
}

const toBinding = (items: readonly TrainingItem[]) =>
  items.map((item) => new FSRSBindingItem(item.reviews.map((r) => new FSRSBindingReview(r.rating, r.deltaT))));

function evaluate(weights: readonly number[], items: FSRSBindingItem[]): Evaluation {
  const { logLoss, rmseBins } = new FSRSBinding([...weights]).evaluate(items);
  return { logLoss, rmse: rmseBins };
}

async function appliedWeights(em: Em, userId: string): Promise<number[] | null> {
  const [row] = await em.execute<{ weights: number[] }[]>(
    `SELECT weights FROM fsrs_parameters WHERE user_id = ? AND applied ORDER BY version DESC LIMIT 1`, [userId],
  );
  return row ? row.weights.map(Number) : null;
}

/**
 * Fits the learner's weights on all but their latest reviews and judges them, and the weights in
 * use, on those. One stored version per optimisation workflow (`runKey`, unique), so a retried
 * activity returns what the first attempt stored.
 */
export async function fitLearnerParameters(em: Em, userId: string, runKey: string): Promise<OptimisationOutcome> {
  const [done] = await em.execute<FittedRow[]>(`SELECT ${FITTED_COLUMNS} FROM fsrs_parameters WHERE run_key = ?`, [runKey]);
  if (done) return { outcome: done.applied ? 'applied' : 'kept', ...fittedOf(done) };

  const items = trainingItems(await reviewLog(em, userId));
  const longTermReviews = longTermReviewCount(items);
  if (longTermReviews < MIN_LONG_TERM_REVIEWS) return { outcome: 'too_few_reviews', longTermReviews };

  const { train, heldOut } = splitHeldOut(items);
  const judged = heldOut.filter(judgeable);
  if (judged.length === 0) return { outcome: 'too_few_reviews', longTermReviews };
  const weights = await computeParameters(toBinding(train), { enableShortTerm: true });
  const testSet = toBinding(judged);
  const fitted = evaluate(weights, testSet);
  const baseline = evaluate((await appliedWeights(em, userId)) ?? default_w, testSet);
  const applied = beats(fitted, baseline);

  // The version is the next of this learner's; a concurrent fit of another run takes the one after.
  const [row] = await em.execute<FittedRow[]>(
    `INSERT INTO fsrs_parameters (user_id, version, weights, log_size, log_loss, rmse, baseline_log_loss, baseline_rmse, applied, run_key)
     SELECT ?, coalesce(max(version), 0) + 1, ?::double precision[], ?, ?, ?, ?, ?, ?, ? FROM fsrs_parameters WHERE user_id = ?
     ON CONFLICT (run_key) DO NOTHING
     RETURNING ${FITTED_COLUMNS}`,
    [userId, `{${weights.join(',')}}`, items.length, fitted.logLoss, fitted.rmse, baseline.logLoss, baseline.rmse, applied, runKey, userId],
  );
  if (!row) return fitLearnerParameters(em, userId, runKey); // a racing attempt stored it first
  return { outcome: row.applied ? 'applied' : 'kept', ...fittedOf(row) };
}
