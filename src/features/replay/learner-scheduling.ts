import type { Em } from '../../db/orm.ts';
import { sql, firstRow, preparedStatement, run } from '../../db/sql.ts';
import { DEFAULT_DESIRED_RETENTION, type LearnerScheduling } from '../../domain/scheduling.ts';
import type { FeatureContext } from '../context.ts';

/**
 * A learner's scheduling settings: the desired retention they chose (replay_settings) and the FSRS
 * weights the optimiser fitted and applied for them (fsrs_parameters), both with defaults.
 */
export async function learnerScheduling(em: Em, userId: string): Promise<LearnerScheduling> {
  const row = await firstRow(em, learnerSettings(userId));
  return {
    desiredRetention: row?.desired_retention == null ? DEFAULT_DESIRED_RETENTION : Number(row.desired_retention),
    weights: row?.weights ? row.weights.map(Number) : null,
  };
}

/** Prepared (src/db/sql.ts): every Replay answer runs it. */
const learnerSettings = preparedStatement(
  'learner_scheduling',
  (userId: string) =>
    sql<{ desired_retention: number | null; weights: number[] | null }>`
     SELECT (SELECT desired_retention FROM replay_settings WHERE user_id = ${userId}) AS desired_retention,
            (SELECT weights FROM fsrs_parameters WHERE user_id = ${userId} AND applied ORDER BY version DESC LIMIT 1) AS weights`,
);

export async function replaySettings(ctx: FeatureContext, userId: string): Promise<{ desiredRetention: number }> {
  return { desiredRetention: (await learnerScheduling(ctx.em, userId)).desiredRetention };
}

/**
 * Stores the learner's desired retention. Cards keep the due time their last review gave them; the
 * new retention applies from each card's next review.
 */
export async function updateReplaySettings(ctx: FeatureContext, userId: string, desiredRetention: number): Promise<{ desiredRetention: number }> {
  await run(
    ctx.em,
    sql`INSERT INTO replay_settings (user_id, desired_retention) VALUES (${userId}, ${desiredRetention})
     ON CONFLICT (user_id) DO UPDATE SET desired_retention = excluded.desired_retention, updated_at = now()`,
  );
  return { desiredRetention };
}
