import type { Em, Orm } from '../../db/orm.ts';
import { sql, firstRow } from '../../db/sql.ts';
import { MIN_LONG_TERM_REVIEWS, optimisationKey, type FittedParameters } from './optimisation-rules.ts';
import { AppError } from '../../domain/problems.ts';
import { wakeOutboxRelay } from '../../temporal/outbox-relay.ts';
import { enqueueWorkflow, outboxStart } from '../../temporal/workflow-starter.ts';
import { WORKFLOW_KINDS, workflowId } from '../../temporal/workflow-ids.ts';
import { fsrsOptimisationWorkflow } from '../../workflows/fsrs-optimisation.ts';

/**
 * The personal optimiser as the API sees it: how far a learner is from a fit, their latest fit,
 * and a request for one (`fsrsOptimisationWorkflow`, which also runs weekly by Schedule). The fit
 * itself is in ./fitting.ts, loaded by the worker only.
 */

export interface FittedRow {
  version: number; log_size: number; log_loss: number; rmse: number; baseline_log_loss: number; baseline_rmse: number; applied: boolean; created_at: Date;
}
export const FITTED_COLUMNS = sql`version, log_size, log_loss, rmse, baseline_log_loss, baseline_rmse, applied, created_at`;
export const fittedOf = (row: FittedRow): FittedParameters => ({
  version: row.version, logSize: row.log_size, logLoss: row.log_loss, rmse: row.rmse,
  baselineLogLoss: row.baseline_log_loss, baselineRmse: row.baseline_rmse, applied: row.applied, fittedAt: new Date(row.created_at).toISOString(),
});

/**
 * Reviews made on a later UTC day than the card's previous one, counted in the database: the
 * same count as longTermReviewCount(trainingItems(log)) without loading the log.
 */
async function longTermReviews(em: Em, userId: string): Promise<number> {
  const row = await firstRow<{ n: number }>(em,
    sql`SELECT count(*) FILTER (WHERE previous IS NOT NULL AND (reviewed_at AT TIME ZONE 'UTC')::date > (previous AT TIME ZONE 'UTC')::date)::int AS n
       FROM (SELECT reviewed_at, lag(reviewed_at) OVER (PARTITION BY card_id ORDER BY reviewed_at, id) AS previous FROM review_logs
       WHERE user_id = ${userId}) AS log`,
  );
  return row?.n ?? 0;
}

/** How far a learner is from a personal schedule, and their latest fit. */
export async function optimisationStatus(em: Em, userId: string) {
  const latest = await firstRow<FittedRow>(em, sql`SELECT ${FITTED_COLUMNS} FROM fsrs_parameters WHERE user_id = ${userId} ORDER BY version DESC LIMIT 1`);
  return { longTermReviews: await longTermReviews(em, userId), reviewsNeeded: MIN_LONG_TERM_REVIEWS, latest: latest ? fittedOf(latest) : null };
}

/** The optimisation of the learner's log as it stands, to start after `tx` commits. */
export async function enqueueOptimisation(tx: Em, userId: string, taskQueue: string): Promise<void> {
  const log = await firstRow<{ reviews: number; latest: Date | null }>(tx,
    sql`SELECT count(*)::int AS reviews, max(reviewed_at) AS latest FROM review_logs WHERE user_id = ${userId}`,
  );
  const key = optimisationKey(userId, log?.reviews ?? 0, log?.latest ? new Date(log.latest) : null);
  await enqueueWorkflow(tx, outboxStart(fsrsOptimisationWorkflow, [userId], {
    workflowId: workflowId(WORKFLOW_KINDS.fsrsOptimisation, key), taskQueue, userId, kind: WORKFLOW_KINDS.fsrsOptimisation,
  }));
}

/**
 * A learner's request to fit their weights now: refused (409) until their log is large enough,
 * so that nobody waits for a fit that cannot happen. The same log asked twice is fitted once.
 */
export async function requestOptimisation(em: Em, deps: { orm: Orm; config: { temporal: { taskQueue: string } } }, userId: string) {
  const status = await optimisationStatus(em, userId);
  if (status.longTermReviews < MIN_LONG_TERM_REVIEWS) {
    throw new AppError('conflict', `A personal schedule needs ${MIN_LONG_TERM_REVIEWS} reviews made a day or more after the card's previous one; you have ${status.longTermReviews}.`, { longTermReviews: status.longTermReviews, reviewsNeeded: MIN_LONG_TERM_REVIEWS });
  }
  await em.transactional((tx) => enqueueOptimisation(tx, userId, deps.config.temporal.taskQueue));
  wakeOutboxRelay(deps.orm);
  return { queued: true as const, ...status };
}
