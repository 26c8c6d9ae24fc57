import { sql, run } from '../../db/sql.ts';
import { AppError } from '../../domain/problems.ts';
import type { FeatureContext } from '../context.ts';
import type { CardDetail } from './schemas.ts';
import { getCardForUser } from './service.ts';

/**
 * The learner disagrees with a quiet correction: the card keeps the text as captured and the
 * correction (and its note) is dropped. Replay, audio and drafts read the card's English as
 * `correctedText ?? text`, so from now on they use the learner's text; Replay's open items follow
 * (src/features/replay/service.ts). A card without a correction is answered as it is.
 */
export async function rejectCorrection(ctx: FeatureContext, userId: string, cardId: string): Promise<CardDetail> {
  const card = await getCardForUser(ctx, userId, cardId);
  if (card.enrichmentStatus !== 'ready') {
    throw new AppError('conflict', `Only a prepared card has a correction to reject; this card is ${card.enrichmentStatus}.`);
  }
  // Guarded by the status again: a retry between the read and the write leaves the card alone.
  await run(
    ctx.em,
    sql`UPDATE cards SET enrichment = enrichment || '{"correctedText": null, "correctionNote": null}'::jsonb, updated_at = now()
     WHERE id = ${cardId} AND user_id = ${userId} AND enrichment_status = 'ready' AND enrichment ->> 'correctedText' IS NOT NULL`,
  );
  return getCardForUser(ctx, userId, cardId);
}
