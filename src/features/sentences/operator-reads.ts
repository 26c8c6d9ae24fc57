import type { Em } from '../../db/orm.ts';

/** Reads across every learner's sentences, for the operator command (npm run ops). */

export async function sentenceCountsByStatus(em: Em, userId: string): Promise<Record<string, number>> {
  const rows = await em.execute<{ status: string; n: number }[]>(
    `SELECT status, count(*)::int AS n FROM sentences WHERE user_id = ? GROUP BY 1`, [userId]);
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

export interface FailedSentence { sentenceId: string; userId: string; code: string; failedAt: Date }

export async function failedSentences(em: Em, since: Date, code: string | null, userId: string | null = null, limit = 10_000): Promise<FailedSentence[]> {
  const rows = await em.execute<(Omit<FailedSentence, 'failedAt'> & { failedAt: string | Date })[]>(
    `SELECT id AS "sentenceId", user_id AS "userId", error_code AS code, updated_at AS "failedAt"
       FROM sentences
      WHERE status = 'failed' AND updated_at >= ? AND (?::text IS NULL OR error_code = ?)
        AND (?::uuid IS NULL OR user_id = ?::uuid)
      ORDER BY updated_at DESC LIMIT ?`,
    [since, code, code, userId, userId, limit]);
  return rows.map((r) => ({ ...r, failedAt: new Date(r.failedAt) }));
}
