import type { Em } from '../../db/orm.ts';
import { sql, allRows, firstRow } from '../../db/sql.ts';
import { ENCOUNTERS_PER_DAY } from '../../domain/limits.ts';
import { AppError, rateLimited } from '../../domain/problems.ts';
import { counter } from '../../platform/metrics.ts';
import type { FeatureContext } from '../context.ts';
import { type Encounter, encounterTimeProblem, onePerCard, secondsUntilNextUtcDay } from './encounter-rules.ts';

const encountersRecorded = counter(
  'lcs_encounters_recorded_total',
  'Encounters recorded (a learner met a card’s expression on a page), by whether new or a repeat',
  ['result'],
);

export interface EncounterBatch {
  /** A random id the client makes for one page view: never the page's address. */
  pageViewId: string;
  encounters: Encounter[];
}

export interface EncountersRecorded {
  recorded: number;
  alreadyRecorded: number;
}

/**
 * Records a page view's encounters in one transaction: all or nothing. Each card counts once per
 * page view (the primary key; a retried batch records nothing twice and costs nothing against the
 * limit). Every card must be the learner's (404 naming the others, as if missing), every time
 * within the last 7 days and not ahead of the clock (400). The new ones count against the daily
 * limit (429 until the next UTC day) and add to the card's `met_count` and `last_met_at`. Nothing
 * else is stored: no text, no address.
 */
export async function recordEncounters(ctx: FeatureContext, userId: string, batch: EncounterBatch, now = new Date()): Promise<EncountersRecorded> {
  const errors = batch.encounters.flatMap((e, i) => {
    const problem = encounterTimeProblem(e.metAt, now);
    return problem ? [{ path: `encounters.${i}.metAt`, message: problem }] : [];
  });
  if (errors.length > 0) throw new AppError('invalid_request', 'Some encounters have a time the service cannot accept.', { errors });
  const encounters = onePerCard(batch.encounters);
  const cardIds = encounters.map((e) => e.cardId);

  const result = await ctx.em.transactional(async (tx) => {
    const owned = await allRows<{ id: string }>(tx, sql`SELECT id FROM cards WHERE id = ANY(${cardIds}::uuid[]) AND user_id = ${userId}`);
    const known = new Set(owned.map((r) => r.id));
    const unknown = cardIds.filter((id) => !known.has(id));
    if (unknown.length > 0) {
      throw new AppError('not_found', `No such card in your library: ${unknown.length} of the batch. Nothing was recorded.`, { unknownCardIds: unknown });
    }
    const rows = JSON.stringify(encounters.map((e) => ({ card_id: e.cardId, met_at: e.metAt.toISOString() })));
    const inserted = await allRows<{ card_id: string }>(
      tx,
      sql`WITH fresh AS (
         INSERT INTO card_encounters (card_id, page_view_id, user_id, met_at)
         SELECT t.card_id, ${batch.pageViewId}, ${userId}, t.met_at FROM jsonb_to_recordset(${rows}::jsonb) AS t (card_id uuid, met_at timestamptz)
         ON CONFLICT (card_id, page_view_id) DO NOTHING RETURNING card_id, met_at
       ), totals AS (
         UPDATE cards c SET met_count = c.met_count + 1, last_met_at = greatest(c.last_met_at, f.met_at) FROM fresh f WHERE c.id = f.card_id RETURNING c.id
       )
       SELECT card_id FROM fresh`,
    );
    if (inserted.length > 0) await takeFromDailyLimit(tx, userId, inserted.length, now);
    return { recorded: inserted.length, alreadyRecorded: encounters.length - inserted.length };
  });
  encountersRecorded.inc({ result: 'new' }, result.recorded);
  encountersRecorded.inc({ result: 'repeat' }, result.alreadyRecorded);
  return result;
}

/** Counts `n` more encounters on the user's UTC day, or refuses them all (429): the caller's transaction then rolls back. */
async function takeFromDailyLimit(tx: Em, userId: string, n: number, now: Date): Promise<void> {
  const day = now.toISOString().slice(0, 10);
  // Cast: two bare parameters compare as text in PostgreSQL ('4' <= '2000' is false), which refused any batch of 3 to 9 new cards.
  const taken = await firstRow<{ recorded: number }>(
    tx,
    sql`INSERT INTO encounter_days AS d (user_id, day, recorded) SELECT ${userId}, ${day}::date, ${n}::int WHERE ${n}::int <= ${ENCOUNTERS_PER_DAY}::int
     ON CONFLICT (user_id, day) DO UPDATE SET recorded = d.recorded + ${n} WHERE d.recorded + ${n} <= ${ENCOUNTERS_PER_DAY}
     RETURNING recorded`,
  );
  if (!taken) throw rateLimited('encounters', secondsUntilNextUtcDay(now) * 1000);
}

/** The encounters of a user's cards, newest first, for the card page ("met 7 times, last yesterday" and when). */
export async function encountersOfCard(em: Em, cardId: string, limit = 20): Promise<Date[]> {
  const rows = await allRows<{ met_at: Date }>(em, sql`SELECT met_at FROM card_encounters WHERE card_id = ${cardId} ORDER BY met_at DESC LIMIT ${limit}`);
  return rows.map((r) => new Date(r.met_at));
}
