import type { Em } from '../../db/orm.ts';
import { sql, allRows, firstRow } from '../../db/sql.ts';
import type { FeatureContext } from '../context.ts';
import { trainingItems, type LoggedReview, type OptimisationOutcome } from './optimisation-rules.ts';
import type { RatingName } from '../../domain/replay-rating.ts';
import { fitAndJudge } from './fsrs-fit.ts';
import { FITTED_COLUMNS, fittedOf, type FittedRow } from './optimiser.ts';

/**
 * A learner's own FSRS weights, fitted on their review log (./fsrs-fit.ts), in the worker only. A
 * fit is stored as a new version either way, and applied (read by learnerScheduling) only when it
 * beats the weights in use on the learner's most recent reviews, held out of the fit.
 */

async function reviewLog(em: Em, userId: string): Promise<LoggedReview[]> {
  const rows = await allRows<{ card_id: string; rating: RatingName; reviewed_at: Date }>(
    em,
    sql`SELECT card_id, rating, reviewed_at FROM review_logs WHERE user_id = ${userId} ORDER BY reviewed_at, id`,
  );
  return rows.map((row) => ({ cardId: row.card_id, rating: row.rating, reviewedAt: new Date(row.reviewed_at) }));
}

async function appliedWeights(em: Em, userId: string): Promise<number[] | null> {
  const row = await firstRow<{ weights: number[] }>(
    em,
    sql`SELECT weights FROM fsrs_parameters WHERE user_id = ${userId} AND applied ORDER BY version DESC LIMIT 1`,
  );
  return row ? row.weights.map(Number) : null;
}

/**
 * Fits the learner's weights on all but their latest reviews and judges them, and the weights in
 * use, on those. One stored version per optimisation workflow (`runKey`, unique), so a retried
 * activity returns what the first attempt stored.
 */
export async function fitLearnerParameters(ctx: FeatureContext, userId: string, runKey: string): Promise<OptimisationOutcome> {
  const { em } = ctx;
  const done = await firstRow<FittedRow>(em, sql`SELECT ${FITTED_COLUMNS} FROM fsrs_parameters WHERE run_key = ${runKey}`);
  if (done) return { outcome: done.applied ? 'applied' : 'kept', ...fittedOf(done) };

  const judgement = await fitAndJudge(trainingItems(await reviewLog(em, userId)), await appliedWeights(em, userId));
  if (judgement.outcome === 'too_few_reviews') return judgement;
  const { weights, fitted, baseline, defaults, applied, logSize, trainSize, heldOutSize } = judgement;

  // The version is the next of this learner's; a concurrent fit of another run takes the one after.
  const row = await firstRow<FittedRow>(
    em,
    sql`INSERT INTO fsrs_parameters (user_id, version, weights, log_size, log_loss, rmse, baseline_log_loss, baseline_rmse, applied, run_key,
       train_size, held_out_size, default_log_loss, default_rmse)
     SELECT ${userId}, coalesce(max(version), 0) + 1, ${weights}::double precision[], ${logSize}, ${fitted.logLoss}, ${fitted.rmse},
       ${baseline.logLoss}, ${baseline.rmse}, ${applied}, ${runKey}, ${trainSize}, ${heldOutSize}, ${defaults.logLoss}, ${defaults.rmse}
     FROM fsrs_parameters WHERE user_id = ${userId}
     ON CONFLICT (run_key) DO NOTHING
     RETURNING ${FITTED_COLUMNS}`,
  );
  if (!row) return fitLearnerParameters(ctx, userId, runKey); // a racing attempt stored it first
  return { outcome: row.applied ? 'applied' : 'kept', ...fittedOf(row) };
}
