import type { Em } from '../../db/orm.ts';
import { sql, allRows, firstRow } from '../../db/sql.ts';
import { AppError } from '../../domain/problems.ts';
import { WORKFLOW_KINDS, workflowId } from '../../temporal/workflow-ids.ts';
import type { WorkflowStarter } from '../../temporal/workflow-starter.ts';
import type { FeatureContext } from '../context.ts';
import { MIN_LONG_TERM_REVIEWS, optimisationKey, type FittedParameters } from './optimisation-rules.ts';

/**
 * The personal optimiser as the API sees it: how far a learner is from a fit, their latest fit,
 * and a request for one (`fsrsOptimisationWorkflow`), which the weekly pass also queues for every
 * learner due one (`fsrsOptimisationSweepWorkflow`, by Schedule). The fit itself is in
 * ./fitting.ts, loaded by the worker only.
 */

export interface FittedRow {
  version: number;
  log_size: number;
  log_loss: number;
  rmse: number;
  baseline_log_loss: number;
  baseline_rmse: number;
  applied: boolean;
  created_at: Date;
}
export const FITTED_COLUMNS = sql`version, log_size, log_loss, rmse, baseline_log_loss, baseline_rmse, applied, created_at`;
export const fittedOf = (row: FittedRow): FittedParameters => ({
  version: row.version,
  logSize: row.log_size,
  logLoss: row.log_loss,
  rmse: row.rmse,
  baselineLogLoss: row.baseline_log_loss,
  baselineRmse: row.baseline_rmse,
  applied: row.applied,
  fittedAt: new Date(row.created_at).toISOString(),
});

/**
 * Reviews made on a later UTC day than the card's previous one, counted in the database: the
 * same count as longTermReviewCount(trainingItems(log)) without loading the log.
 */
async function longTermReviews(em: Em, userId: string): Promise<number> {
  const row = await firstRow<{ n: number }>(
    em,
    sql`SELECT count(*) FILTER (WHERE previous IS NOT NULL AND (reviewed_at AT TIME ZONE 'UTC')::date > (previous AT TIME ZONE 'UTC')::date)::int AS n
       FROM (SELECT reviewed_at, lag(reviewed_at) OVER (PARTITION BY card_id ORDER BY reviewed_at, id) AS previous FROM review_logs
       WHERE user_id = ${userId}) AS log`,
  );
  return row?.n ?? 0;
}

/** How far a learner is from a personal schedule, and their latest fit. */
export async function optimisationStatus(ctx: FeatureContext, userId: string) {
  const { em } = ctx;
  const latest = await firstRow<FittedRow>(em, sql`SELECT ${FITTED_COLUMNS} FROM fsrs_parameters WHERE user_id = ${userId} ORDER BY version DESC LIMIT 1`);
  return { longTermReviews: await longTermReviews(em, userId), reviewsNeeded: MIN_LONG_TERM_REVIEWS, latest: latest ? fittedOf(latest) : null };
}

/** The optimisation of the learner's log as it stands, recorded in `tx` to start after it commits. */
export async function enqueueOptimisation(tx: Em, workflows: WorkflowStarter, userId: string): Promise<void> {
  const log = await firstRow<{ reviews: number; latest: Date | null }>(
    tx,
    sql`SELECT count(*)::int AS reviews, max(reviewed_at) AS latest FROM review_logs WHERE user_id = ${userId}`,
  );
  const key = optimisationKey(userId, log?.reviews ?? 0, log?.latest ? new Date(log.latest) : null);
  await workflows.enqueue(
    tx,
    workflows.start('fsrsOptimisationWorkflow', [userId], {
      workflowId: workflowId(WORKFLOW_KINDS.fsrsOptimisation, key),
      userId,
      kind: WORKFLOW_KINDS.fsrsOptimisation,
    }),
  );
}

/**
 * A learner's request to fit their weights now: refused (409) until their log is large enough,
 * so that nobody waits for a fit that cannot happen. The same log asked twice is fitted once.
 */
export async function requestOptimisation(ctx: FeatureContext, userId: string) {
  const { em, workflows } = ctx;
  const status = await optimisationStatus(ctx, userId);
  if (status.longTermReviews < MIN_LONG_TERM_REVIEWS) {
    throw new AppError(
      'conflict',
      `A personal schedule needs ${MIN_LONG_TERM_REVIEWS} reviews made a day or more after the card's previous one; you have ${status.longTermReviews}.`,
      { longTermReviews: status.longTermReviews, reviewsNeeded: MIN_LONG_TERM_REVIEWS },
    );
  }
  await em.transactional((tx) => enqueueOptimisation(tx, workflows, userId));
  workflows.wakeRelay();
  return { queued: true as const, ...status };
}

/**
 * The weekly pass: queues a fit for every learner whose log could train one and who reviewed
 * since their last fit. A learner whose log has not changed is refused by Temporal (same workflow id).
 */
export async function queueDueOptimisations(ctx: FeatureContext): Promise<{ queued: number }> {
  const { em, workflows } = ctx;
  const queued = await em.transactional(async (tx) => {
    const due = await allRows<{ user_id: string }>(
      tx,
      sql`SELECT r.user_id FROM review_logs r GROUP BY r.user_id
       HAVING count(*) >= ${MIN_LONG_TERM_REVIEWS} AND max(r.reviewed_at) > coalesce((SELECT max(p.created_at) FROM fsrs_parameters p
         WHERE p.user_id = r.user_id), '-infinity')`,
    );
    for (const { user_id } of due) await enqueueOptimisation(tx, workflows, user_id);
    return due.length;
  });
  if (queued > 0) workflows.wakeRelay();
  return { queued };
}
