import { sql, allRows, firstRow } from '../../db/sql.ts';
import type { FeatureContext } from '../context.ts';

/** Reads across every learner's library, for the operator command (npm run ops); never for a learner. */

export async function cardCountsByStatus(ctx: FeatureContext, userId: string): Promise<Record<string, number>> {
  const rows = await allRows<{ status: string; n: number }>(
    ctx.em,
    sql`SELECT enrichment_status AS status, count(*)::int AS n FROM cards WHERE user_id = ${userId} GROUP BY 1`,
  );
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

export interface FailedCard {
  cardId: string;
  userId: string;
  code: string;
  failedAt: Date;
}

/** Cards whose preparation failed since `since`, with that code when given; newest first. */
export async function failedCards(ctx: FeatureContext, since: Date, code: string | null, userId: string | null = null, limit = 10_000): Promise<FailedCard[]> {
  const rows = await allRows<Omit<FailedCard, 'failedAt'> & { failedAt: string | Date }>(
    ctx.em,
    sql`SELECT id AS "cardId", user_id AS "userId", enrichment_error ->> 'code' AS code, updated_at AS "failedAt"
       FROM cards
      WHERE enrichment_status = 'failed' AND updated_at >= ${since} AND (${code}::text IS NULL OR enrichment_error ->> 'code' = ${code})
        AND (${userId}::uuid IS NULL OR user_id = ${userId}::uuid)
      ORDER BY updated_at DESC LIMIT ${limit}`,
  );
  return rows.map((r) => ({ ...r, failedAt: new Date(r.failedAt) }));
}

/** Model calls made for cards prepared since `since` beyond the one that was charged: duplicates and retries. */
export async function extraPreparationCalls(ctx: FeatureContext, since: Date): Promise<number> {
  const row = await firstRow<{ n: number }>(
    ctx.em,
    sql`SELECT coalesce(sum(greatest(preparation_calls - 1, 0)), 0)::int AS n FROM cards WHERE updated_at >= ${since}`,
  );
  return row!.n;
}

/** Ready cards whose preparation a model made (`prepared_by_model`), oldest first: what `ops prepare-again` prepares again. */
export async function cardsPreparedBy(
  ctx: FeatureContext,
  model: string,
  userId: string | null = null,
  limit = 10_000,
): Promise<{ cardId: string; userId: string }[]> {
  return allRows<{ cardId: string; userId: string }>(
    ctx.em,
    sql`SELECT id AS "cardId", user_id AS "userId" FROM cards
      WHERE enrichment_status = 'ready' AND prepared_by_model = ${model} AND (${userId}::uuid IS NULL OR user_id = ${userId}::uuid)
      ORDER BY enriched_at, id LIMIT ${limit}`,
  );
}
