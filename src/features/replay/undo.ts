import { sql, firstRow, run } from '../../db/sql.ts';
import { AppError } from '../../domain/problems.ts';
import { cardFeedback, cardsInTheWild } from '../library/card-reads.ts';
import { scheduleFromJson, writeSchedule } from './schedule-store.ts';
import { itemClozes } from './service.ts';
import type { ReplayUndoResult } from './schemas.ts';
import type { FeatureContext } from '../context.ts';

/**
 * POST /api/replay/undo: takes back the last rating of the learner's latest session. The card's
 * schedule becomes exactly what it was before that review (kept in its review log), the log goes,
 * and the item is open again (its session too), with the same mask, to be completed anew.
 * Any other item → 409 `conflict`: only the last rating, only in the latest session, only once.
 */
export async function undoLastRating(ctx: FeatureContext, userId: string, itemId: string): Promise<ReplayUndoResult> {
  return ctx.em.transactional(async (tx) => {
    const item = await firstRow<{
      id: string;
      session_id: string;
      card_id: string;
      answer: string;
      mask: string;
      context_id: string | null;
      context_mask: string | null;
      completed_at: Date | null;
    }>(
      tx,
      sql`SELECT id, session_id, card_id, answer, mask, context_id, context_mask, completed_at FROM replay_items WHERE id = ${itemId} AND user_id = ${userId}`,
    );
    if (!item) throw new AppError('not_found', 'No such Replay item.');
    // The session row serialises undo with the session's completions (completeItem locks it too).
    const latest = await firstRow<{ id: string }>(
      tx,
      sql`SELECT id FROM replay_sessions WHERE user_id = ${userId} ORDER BY created_at DESC, id DESC LIMIT 1 FOR UPDATE`,
    );
    if (latest?.id !== item.session_id) throw new AppError('conflict', 'Only a rating of your latest Replay session can be undone.');
    const last = await firstRow<{ id: string; replay_item_id: string; previous_schedule: Record<string, unknown> | null }>(
      tx,
      sql`SELECT l.id, l.replay_item_id, l.previous_schedule FROM review_logs l JOIN replay_items i ON i.id = l.replay_item_id
       WHERE i.session_id = ${item.session_id} ORDER BY l.id DESC LIMIT 1`,
    );
    if (last?.replay_item_id !== item.id) throw new AppError('conflict', 'Only the last rating of the session can be undone.');
    if (!last.previous_schedule) throw new AppError('conflict', 'This rating was recorded before ratings could be undone.');

    await run(tx, sql`SELECT 1 FROM card_schedules WHERE card_id = ${item.card_id} FOR UPDATE`);
    await writeSchedule(tx, item.card_id, scheduleFromJson(last.previous_schedule));
    await run(tx, sql`DELETE FROM review_logs WHERE id = ${last.id}`);
    await run(tx, sql`UPDATE replay_items SET completed_at = NULL, rating = NULL, next_review_at = NULL WHERE id = ${item.id}`);
    await run(tx, sql`UPDATE replay_sessions SET finished_at = NULL WHERE id = ${item.session_id}`);
    const feedback = (await cardFeedback(tx, [item.card_id])).get(item.card_id)!;
    return {
      sessionId: item.session_id,
      item: {
        itemId: item.id,
        cardId: item.card_id,
        prompt: feedback.translation,
        answer: item.answer,
        mask: item.mask,
        metSinceReview: (await cardsInTheWild(tx, [item.card_id])).get(item.card_id)?.metSinceReview ?? false,
        context: (await itemClozes(tx, [item])).get(item.id) ?? null,
      },
    };
  });
}
