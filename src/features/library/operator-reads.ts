import type { Em } from '../../db/orm.ts';

/** Reads across every learner's library, for the operator command (npm run ops); never for a learner. */

export async function cardCountsByStatus(em: Em, userId: string): Promise<Record<string, number>> {
  const rows = await em.execute<{ status: string; n: number }[]>(
    `SELECT enrichment_status AS status, count(*)::int AS n FROM cards WHERE user_id = ? GROUP BY 1`, [userId]);
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

export interface FailedCard { cardId: string; userId: string; code: string; failedAt: Date }

/** Cards whose enrichment failed since `since`, with that code when given; newest first. */
export async function failedCards(em: Em, since: Date, code: string | null, userId: string | null = null, limit = 10_000): Promise<FailedCard[]> {
  const rows = await em.execute<(Omit<FailedCard, 'failedAt'> & { failedAt: string | Date })[]>(
    `SELECT id AS "cardId", user_id AS "userId", enrichment_error ->> 'code' AS code, updated_at AS "failedAt"
       FROM cards
      WHERE enrichment_status = 'failed' AND updated_at >= ? AND (?::text IS NULL OR enrichment_error ->> 'code' = ?)
        AND (?::uuid IS NULL OR user_id = ?::uuid)
      ORDER BY updated_at DESC LIMIT ?`,
    [since, code, code, userId, userId, limit]);
  return rows.map((r) => ({ ...r, failedAt: new Date(r.failedAt) }));
}

/** Model calls made for cards enriched since `since` beyond the one that was charged: duplicates and retries. */
export async function extraEnrichmentCalls(em: Em, since: Date): Promise<number> {
  const [row] = await em.execute<{ n: number }[]>(
    `SELECT coalesce(sum(greatest(preparation_calls - 1, 0)), 0)::int AS n FROM cards WHERE updated_at >= ?`, [since]);
  return row!.n;
}
