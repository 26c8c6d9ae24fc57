import { sql, allRows } from '../../db/sql.ts';
import type { FeatureContext } from '../context.ts';

export interface SpendByKind {
  kind: string;
  charges: number;
  credits: number;
  providerUsd: string;
}

/**
 * What was charged since `since`, by kind, beside what the provider calls behind those charges
 * cost us (the ledger keeps each charge's provider cost). For the operator command.
 */
export async function spendByKind(ctx: FeatureContext, since: Date): Promise<SpendByKind[]> {
  return allRows<SpendByKind>(
    ctx.em,
    sql`SELECT kind, count(*)::int AS charges, (-sum(amount))::int AS credits, coalesce(sum(provider_cost_usd), 0)::text AS "providerUsd"
       FROM ledger_entries WHERE created_at >= ${since} AND amount < 0 GROUP BY kind ORDER BY kind`,
  );
}
