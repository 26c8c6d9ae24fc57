import { allRows, firstRow, sql } from '../../db/sql.ts';
import { FORECAST_DAYS, type ReplayForecast, buildForecast } from './forecast-rules.ts';
import type { FeatureContext } from '../context.ts';

/**
 * GET /api/replay/forecast: the reviewed, ready cards due now, the next due time and the cards
 * falling due per UTC day for two weeks (counted in SQL; see buildForecast). New cards are not
 * reviews: they are counted apart, as `newCards`.
 */
export async function replayForecast(ctx: FeatureContext, userId: string, now = new Date()): Promise<ReplayForecast & { newCards: number }> {
  const { em } = ctx;
  const windowEnd = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + FORECAST_DAYS));
  const ready = sql`FROM card_schedules s JOIN cards c ON c.id = s.card_id WHERE s.user_id = ${userId} AND c.enrichment_status = 'ready'`;
  const totals = await firstRow<{ due_now: string; next_due_at: Date | null; new_cards: string }>(
    em,
    sql`SELECT count(*) FILTER (WHERE s.state <> 'new' AND s.due <= ${now}) AS due_now,
            min(s.due) FILTER (WHERE s.state <> 'new' AND s.due > ${now}) AS next_due_at,
            count(*) FILTER (WHERE s.state = 'new') AS new_cards
     ${ready}`,
  );
  const perDay = await allRows<{ date: string; due: string }>(
    em,
    sql`SELECT to_char(s.due AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date, count(*) AS due
     ${ready} AND s.state <> 'new' AND s.due < ${windowEnd} GROUP BY 1`,
  );
  const forecast = buildForecast(
    perDay.map((d) => ({ date: d.date, due: Number(d.due) })),
    Number(totals!.due_now),
    totals!.next_due_at ? new Date(totals!.next_due_at) : null,
    now,
  );
  return { ...forecast, newCards: Number(totals!.new_cards) };
}
