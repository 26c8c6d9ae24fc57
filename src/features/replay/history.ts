import { sql, allRows, firstRow } from '../../db/sql.ts';
import { AppError } from '../../domain/problems.ts';
import type { CardReviews } from './schemas.ts';
import type { FeatureContext } from '../context.ts';

/** How many of a card's reviews one answer lists, newest first. */
const REVIEWS_LISTED = 50;

/** A card's Replay reviews, newest first, with the evidence each rating came from; 404 for another user's card. */
export async function cardReviews(ctx: FeatureContext, userId: string, cardId: string): Promise<CardReviews> {
  const { em } = ctx;
  const card = await firstRow<{ id: string }>(em, sql`SELECT id FROM cards WHERE id = ${cardId} AND user_id = ${userId}`);
  if (!card) throw new AppError('not_found', 'No such card in your library.');
  const rows = await allRows<{
    rating: CardReviews['items'][number]['rating'];
    reviewed_at: Date;
    used_hint: boolean;
    auto_filled: boolean;
    unaided_errors: number;
    duration_ms: number | null;
  }>(
    em,
    sql`SELECT rating, reviewed_at, used_hint, auto_filled, unaided_errors, duration_ms FROM review_logs
     WHERE card_id = ${cardId} AND user_id = ${userId} ORDER BY reviewed_at DESC, id DESC LIMIT ${REVIEWS_LISTED}`,
  );
  return {
    items: rows.map((r) => ({
      rating: r.rating,
      reviewedAt: new Date(r.reviewed_at).toISOString(),
      usedHint: r.used_hint,
      autoFilled: r.auto_filled,
      unaidedErrors: r.unaided_errors,
      durationMs: r.duration_ms,
    })),
  };
}
