import { allRows, firstRow, sql } from '../../db/sql.ts';
import { AppError } from '../../domain/problems.ts';
import type { FeatureContext } from '../context.ts';
import { getWallet } from '../credits/wallet.ts';
import { retryPreparation } from './service.ts';

/** At most this many cards are prepared again per learner and pass; the next pass takes the rest. */
const RENEWAL_BATCH = 200;

/** Whether the learner asked that cards which failed for want of credits be prepared again when their credits renew. */
export async function prepareOnRenewal(ctx: FeatureContext, userId: string): Promise<{ prepareOnRenewal: boolean }> {
  const row = await firstRow<{ prepare_on_renewal: boolean }>(ctx.em, sql`SELECT prepare_on_renewal FROM users WHERE id = ${userId}`);
  if (!row) throw new AppError('unauthenticated', 'The account no longer exists.');
  return { prepareOnRenewal: row.prepare_on_renewal };
}

export async function setPrepareOnRenewal(ctx: FeatureContext, userId: string, choice: boolean): Promise<{ prepareOnRenewal: boolean }> {
  const row = await firstRow<{ prepare_on_renewal: boolean }>(
    ctx.em,
    sql`UPDATE users SET prepare_on_renewal = ${choice} WHERE id = ${userId} RETURNING prepare_on_renewal`,
  );
  if (!row) throw new AppError('unauthenticated', 'The account no longer exists.');
  return { prepareOnRenewal: row.prepare_on_renewal };
}

/**
 * The renewal pass for one learner: when they chose it, every card whose preparation failed for
 * want of credits before the wallet's current period began is prepared again through the normal
 * retry path (a new attempt, charged once under its own key). A card that fails again for credits
 * in this period waits for the next one. Safe to run twice at once or again: a card already
 * retried is pending, not failed, and the retry refuses it. Returns the cards sent to preparation.
 */
export async function prepareCardsWaitingForCredits(ctx: FeatureContext, userId: string, now = new Date()): Promise<string[]> {
  // Reading the wallet rolls it into the current period if the last one has ended.
  const { periodStart } = await getWallet(ctx, userId, now);
  return prepareWaiting(ctx, userId, new Date(periodStart));
}

async function prepareWaiting(ctx: FeatureContext, userId: string, periodStart: Date): Promise<string[]> {
  const waiting = await allRows<{ id: string }>(
    ctx.em,
    sql`SELECT c.id FROM cards c JOIN users u ON u.id = c.user_id
     WHERE c.user_id = ${userId} AND u.prepare_on_renewal AND c.enrichment_status = 'failed'
       AND c.enrichment_error->>'code' = 'insufficient_credits' AND c.updated_at < ${periodStart}
     ORDER BY c.updated_at LIMIT ${RENEWAL_BATCH}`,
  );
  const prepared: string[] = [];
  for (const { id } of waiting) {
    try {
      await retryPreparation(ctx, userId, id);
      prepared.push(id);
    } catch (error) {
      // Retried meanwhile by the learner or by a twin pass (conflict), or deleted (not_found): nothing to do.
      if (!(error instanceof AppError) || (error.code !== 'conflict' && error.code !== 'not_found')) throw error;
    }
  }
  return prepared;
}

/** Runs the pass when the learner's wallet is read: cheap (one indexed query) when nothing waits. */
export async function prepareWaitingOnRead(ctx: FeatureContext, userId: string, periodStart: string): Promise<void> {
  await prepareWaiting(ctx, userId, new Date(periodStart));
}

/**
 * The pass over every learner who chose it and has cards waiting from an earlier period, or whose
 * period has ended unread (housekeeping, or another workflow such as imports, may call it).
 */
export async function prepareWaitingCardsOfRenewedWallets(ctx: FeatureContext, now = new Date()): Promise<number> {
  const learners = await allRows<{ user_id: string }>(
    ctx.em,
    sql`SELECT DISTINCT c.user_id FROM cards c JOIN users u ON u.id = c.user_id JOIN wallets w ON w.user_id = c.user_id
     WHERE u.prepare_on_renewal AND c.enrichment_status = 'failed' AND c.enrichment_error->>'code' = 'insufficient_credits'
       AND (c.updated_at < w.period_start OR w.period_end <= ${now})`,
  );
  let prepared = 0;
  for (const { user_id } of learners) prepared += (await prepareCardsWaitingForCredits(ctx, user_id, now)).length;
  return prepared;
}
