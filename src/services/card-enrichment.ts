import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { Logger } from 'pino';
import type { Em } from '../db/orm.ts';
import {
  type EnrichmentError,
  type PreparationOutcome,
  PREPARATION_TASK,
  buildPreparationRequest,
  finalisePreparation,
  preparationOutputSchema,
  settledOutcome,
} from '../domain/library-preparation.ts';
import { AppError } from '../domain/problems.ts';
import type { ModelClient } from '../model/model-client.ts';
import { WORKFLOW_KINDS, workflowId } from '../workflows/constants.ts';
import { charge, getWallet } from './wallet.ts';

/**
 * The preparation of a card ("enrichment"): what the workflow's activities do, and how the API
 * cancels the workflow.
 *
 * Why an outbox: the card row and the intent to prepare it are written in one transaction, and
 * the workflow is started after the commit. Starting the workflow inside the transaction could
 * start work for a card that a rollback then removes; starting it after the commit without a
 * record loses it when the process dies in between (the card would stay pending forever). The
 * outbox row survives that crash and the relay in the worker starts it a few seconds later.
 */

export const enrichmentWorkflowId = (cardId: string) => workflowId(WORKFLOW_KINDS.cardEnrichment, cardId);

/** Idempotency key of an attempt's charge: a retried activity can never charge twice. */
export const preparationChargeKey = (cardId: string, attempt: number) => `${enrichmentWorkflowId(cardId)}/attempt-${attempt}`;

export interface PreparationRef {
  cardId: string;
  attempt: number;
}

/** How long a deletion waits for Temporal to take the cancellation before answering anyway. */
const CANCEL_DEADLINE_MS = 2_000;

/**
 * Cancels the card's running preparation, if any. Its absence is not an error. Bounded: with
 * Temporal unreachable the client retries for tens of seconds, and the deletion (already
 * committed) must not wait for that.
 */
export async function cancelPreparation(temporal: Client, cardId: string, logger?: Pick<Logger, 'warn'>): Promise<void> {
  try {
    const handle = temporal.workflow.getHandle(enrichmentWorkflowId(cardId));
    await temporal.connection.withDeadline(Date.now() + CANCEL_DEADLINE_MS, () => handle.cancel());
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return;
    // The card is already gone and preparation only stores into an existing card, so a missed
    // cancellation costs one model call, never a resurrected card.
    logger?.warn({ workflowId: enrichmentWorkflowId(cardId), err: (error as Error).message }, 'could not cancel a preparation');
  }
}

interface PreparationCardRow {
  user_id: string;
  text: string;
  enrichment_status: 'pending' | 'ready' | 'failed';
  enrichment_attempt: number;
  enrichment_error: EnrichmentError | null;
  native_language: string | null;
}

/**
 * One preparation attempt of one card: a single validated model call, then — in one
 * transaction, with the card row locked — the charge (keyed by card and attempt) and the stored
 * result. A retry after a crash anywhere either finds the attempt settled (no model call) or
 * redoes the call and stores it once; the card is charged at most once per attempt and only
 * when the result is stored. A deleted card is never written back nor charged.
 */
export async function prepareCard(em: Em, model: ModelClient, ref: PreparationRef, signal?: AbortSignal): Promise<PreparationOutcome> {
  const [card] = await em.execute<PreparationCardRow[]>(
    `SELECT c.user_id, c.text, c.enrichment_status, c.enrichment_attempt, c.enrichment_error, u.native_language
     FROM cards c JOIN users u ON u.id = c.user_id WHERE c.id = ?`,
    [ref.cardId],
  );
  const settled = settledOutcome(card ? { status: card.enrichment_status, attempt: card.enrichment_attempt, error: card.enrichment_error } : null, ref.attempt);
  if (settled || !card) return settled ?? { outcome: 'gone' };
  if (!card.native_language) throw new AppError('language_setup_required', 'The account has no native language set.');

  const { balance } = await getWallet(em, card.user_id);
  if (balance <= 0) throw new AppError('insufficient_credits', 'No credits left in this period to prepare the card; refresh it once credits renew.');

  const request = buildPreparationRequest(card.text, card.native_language);
  const answer = await model.complete({ task: PREPARATION_TASK, schema: preparationOutputSchema, ...request, ...(signal ? { signal } : {}) });
  const enrichment = finalisePreparation(card.text, answer.data);

  return em.transactional(async (tx) => {
    const [locked] = await tx.execute<Omit<PreparationCardRow, 'text' | 'native_language'>[]>(
      `SELECT user_id, enrichment_status, enrichment_attempt, enrichment_error FROM cards WHERE id = ? FOR UPDATE`,
      [ref.cardId],
    );
    const now = settledOutcome(locked ? { status: locked.enrichment_status, attempt: locked.enrichment_attempt, error: locked.enrichment_error } : null, ref.attempt);
    if (now || !locked) return now ?? { outcome: 'gone' };
    await charge(tx, {
      userId: locked.user_id,
      idempotencyKey: preparationChargeKey(ref.cardId, ref.attempt),
      providerCostUsd: answer.costUsd,
      kind: 'capture_preparation',
      reason: 'capture preparation',
      ref: ref.cardId,
    });
    await tx.execute(
      `UPDATE cards SET enrichment = ?::jsonb, enrichment_status = 'ready', enrichment_error = NULL, enriched_at = now(), updated_at = now() WHERE id = ?`,
      [JSON.stringify(enrichment), ref.cardId],
    );
    return { outcome: 'ready' };
  });
}

/** Marks the attempt failed (only if it is still the card's pending attempt). */
export async function recordPreparationFailure(em: Em, ref: PreparationRef, error: EnrichmentError): Promise<void> {
  await em.execute(
    `UPDATE cards SET enrichment_status = 'failed', enrichment_error = ?::jsonb, updated_at = now()
     WHERE id = ? AND enrichment_attempt = ? AND enrichment_status = 'pending'`,
    [JSON.stringify(error), ref.cardId, ref.attempt],
  );
}
