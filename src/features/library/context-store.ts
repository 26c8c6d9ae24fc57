import { randomUUID } from 'node:crypto';
import type { Em } from '../../db/orm.ts';
import { sql, allRows, firstRow, run } from '../../db/sql.ts';
import { AppError } from '../../domain/problems.ts';
import { type CardContextView, type PlacedContext, contextsToDrop, placeContext } from './contexts.ts';

/**
 * A card's contexts in the database (the rules are in ./contexts.ts). Their text is the learner's:
 * it is read only by the card's owner and by the card's own preparation, and never logged.
 */

interface ContextRow {
  id: string;
  text: string;
  mark_start: number;
  mark_end: number;
  created_at: Date;
  source_url: string | null;
}

const CONTEXT_COLUMNS = sql.raw('id, text, mark_start, mark_end, created_at, source_url');

const toView = (row: ContextRow): CardContextView => ({
  contextId: row.id,
  text: row.text,
  start: row.mark_start,
  end: row.mark_end,
  createdAt: new Date(row.created_at).toISOString(),
  sourceUrl: row.source_url,
});

/** The context as stored, or 400 naming why it is refused. */
export function placedOrRefused(rawContext: string, expressions: readonly string[]): PlacedContext {
  const placed = placeContext(rawContext, expressions);
  if ('problem' in placed)
    throw new AppError('invalid_request', `Invalid context: ${placed.problem}.`, { errors: [{ path: 'context', message: placed.problem }] });
  return placed;
}

/**
 * Adds a context to a card, in the caller's transaction, after the card row is locked (so two
 * additions keep the cap between them). The same sentence again adds nothing and returns the one
 * stored (given the link back to where it was met, if it had none). Past the cap the oldest but the first go.
 */
export async function addContext(
  tx: Em,
  card: { cardId: string; userId: string },
  placed: PlacedContext,
  now: Date,
  sourceUrl: string | null = null,
): Promise<CardContextView> {
  const inserted = await firstRow<ContextRow>(
    tx,
    sql`INSERT INTO card_contexts (id, card_id, user_id, text, context_key, mark_start, mark_end, created_at, source_url)
     VALUES (${randomUUID()}, ${card.cardId}, ${card.userId}, ${placed.text}, ${placed.key}, ${placed.mark.start}, ${placed.mark.end}, ${now}, ${sourceUrl})
     ON CONFLICT (card_id, context_key) DO NOTHING RETURNING ${CONTEXT_COLUMNS}`,
  );
  if (!inserted) {
    const existing = await firstRow<ContextRow>(
      tx,
      sql`UPDATE card_contexts SET source_url = COALESCE(source_url, ${sourceUrl}) WHERE card_id = ${card.cardId} AND context_key = ${placed.key}
          RETURNING ${CONTEXT_COLUMNS}`,
    );
    return toView(existing!);
  }
  const ordered = await allRows<{ id: string }>(tx, sql`SELECT id FROM card_contexts WHERE card_id = ${card.cardId} ORDER BY created_at, id`);
  const drop = contextsToDrop(ordered);
  if (drop.length > 0) await run(tx, sql`DELETE FROM card_contexts WHERE id = ANY(${drop}::uuid[])`);
  return toView(inserted);
}

/** A card's contexts, oldest first (its owner's read: the caller has checked the card is theirs). */
export async function contextsOfCard(em: Em, cardId: string): Promise<CardContextView[]> {
  const rows = await allRows<ContextRow>(em, sql`SELECT ${CONTEXT_COLUMNS} FROM card_contexts WHERE card_id = ${cardId} ORDER BY created_at, id`);
  return rows.map(toView);
}
