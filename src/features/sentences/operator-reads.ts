import { sql, allRows } from '../../db/sql.ts';
import type { FeatureContext } from '../context.ts';

/** Reads across every learner's sentences, for the operator command (npm run ops). */

export async function sentenceCountsByStatus(ctx: FeatureContext, userId: string): Promise<Record<string, number>> {
  const rows = await allRows<{ status: string; n: number }>(ctx.em, sql`SELECT status, count(*)::int AS n FROM sentences WHERE user_id = ${userId} GROUP BY 1`);
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

export interface FailedSentence {
  sentenceId: string;
  userId: string;
  code: string;
  failedAt: Date;
}

export async function failedSentences(
  ctx: FeatureContext,
  since: Date,
  code: string | null,
  userId: string | null = null,
  limit = 10_000,
): Promise<FailedSentence[]> {
  const rows = await allRows<Omit<FailedSentence, 'failedAt'> & { failedAt: string | Date }>(
    ctx.em,
    sql`SELECT id AS "sentenceId", user_id AS "userId", error_code AS code, updated_at AS "failedAt"
       FROM sentences
      WHERE status = 'failed' AND updated_at >= ${since} AND (${code}::text IS NULL OR error_code = ${code})
        AND (${userId}::uuid IS NULL OR user_id = ${userId}::uuid)
      ORDER BY updated_at DESC LIMIT ${limit}`,
  );
  return rows.map((r) => ({ ...r, failedAt: new Date(r.failedAt) }));
}
