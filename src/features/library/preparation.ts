import type { Em } from '../../db/orm.ts';
import { sql, firstRow, preparedStatement, run } from '../../db/sql.ts';
import { OUTPUT_TOKEN_LIMITS } from '../../domain/model-budget.ts';
import { AppError, isAppError } from '../../domain/problems.ts';
import { businessOutcomeOf } from '../../domain/workflow-outcome.ts';
import type { StructuredRequest, StructuredResult } from '../../model/model-client.ts';
import { counter, histogram } from '../../platform/metrics.ts';
import { WORKFLOW_KINDS, workflowId } from '../../temporal/workflow-ids.ts';
import type { WorkflowStart, WorkflowStarter } from '../../temporal/workflow-starter.ts';
import type { FeatureContext } from '../context.ts';
import { type BackgroundCall, modelCallHold, withModelCallHold } from '../credits/paid-call.ts';
import { charge, WALLET_COLUMNS, walletColumnsOf, type WalletRow } from '../credits/wallet.ts';
import { announceStatusChange } from '../status/changes.ts';
import {
  BUDGET_SPENT_MESSAGE,
  CARD_PREPARATION_BUDGET,
  finalisePreparation,
  PREPARATION_TASK,
  preparationSchemaFor,
  preparationRequest,
  settledOutcome,
  type PreparationError,
  type PreparationOutcome,
} from './preparation-rules.ts';

/**
 * The preparation of a card: what the `cardEnrichment` workflow's activities do
 * (src/activities/card-enrichment.ts). The capture that starts it is in ./service.ts; the rules it
 * follows, pure, in ./preparation-rules.ts.
 */

/**
 * The workflow id of a card's preparation: `card-enrichment/<cardId>` for the capture and its
 * retries; a "prepare this sense" attempt, and retries after it, run under an id of their own
 * (`sense_attempt`, the attempt that started it), since a completed id is never started again.
 */
export const preparationWorkflowId = (cardId: string, senseAttempt: number | null = null) =>
  workflowId(WORKFLOW_KINDS.cardEnrichment, senseAttempt === null ? cardId : `${cardId}/sense-${senseAttempt}`);

/**
 * The preparation workflow's start: ids and the attempt number only, never the text. Every run it starts prepares in a
 * local activity without asking `patched` (`preparesLocally`, src/workflows/card-enrichment.ts).
 */
export function preparationStart(
  workflows: WorkflowStarter,
  userId: string,
  cardId: string,
  attempt: number,
  senseAttempt: number | null = null,
): WorkflowStart {
  return workflows.start('cardEnrichment', [{ cardId, attempt, preparesLocally: true }], {
    workflowId: preparationWorkflowId(cardId, senseAttempt),
    userId,
    kind: WORKFLOW_KINDS.cardEnrichment,
  });
}

/** Idempotency key of an attempt's charge: a retried activity can never charge twice. */
const preparationChargeKey = (cardId: string, attempt: number) => `${preparationWorkflowId(cardId)}/attempt-${attempt}`;

const preparations = counter(
  'lcs_card_preparations_total',
  'Card preparations settled, by outcome (ready, failed, or a business outcome such as insufficient_credits) and catalog code',
  ['outcome', 'code'],
);
const captureToReady = histogram(
  'lcs_capture_to_ready_seconds',
  'Time from a capture to its card being ready, first attempts only (a retry starts later)',
  [],
  [0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800],
);

export interface PreparationRef {
  cardId: string;
  attempt: number;
}

interface PreparationCardRow {
  user_id: string;
  text: string;
  enrichment_status: 'pending' | 'ready' | 'failed';
  enrichment_attempt: number;
  enrichment_error: PreparationError | null;
  native_language: string | null;
  context_text: string | null;
  context_start: number | null;
  context_end: number | null;
}

/**
 * One preparation attempt of one card: credits held for its maximum cost, a validated model call
 * within the card's budget (completeWithinBudget), then — in one transaction, with the card row
 * locked — the charge (keyed by card and attempt, settling the hold) and the stored result. A retry after a crash anywhere either
 * finds the attempt settled (no model call) or redoes the call and stores it once; the card is
 * charged at most once per attempt and only when the result is stored. A deleted card is never
 * written back nor charged.
 */
export async function prepareCard(ctx: FeatureContext, ref: PreparationRef, background?: BackgroundCall): Promise<PreparationOutcome> {
  const { em, model } = ctx;
  const card = await firstRow<PreparationCardRow>(
    em,
    sql`SELECT c.user_id, c.text, c.enrichment_status, c.enrichment_attempt, c.enrichment_error, u.native_language,
       x.text AS context_text, x.mark_start AS context_start, x.mark_end AS context_end
     FROM cards c JOIN users u ON u.id = c.user_id LEFT JOIN card_contexts x ON x.id = c.prepared_context_id WHERE c.id = ${ref.cardId}`,
  );
  const settled = settledOutcome(card ? { status: card.enrichment_status, attempt: card.enrichment_attempt, error: card.enrichment_error } : null, ref.attempt);
  if (settled || !card) return settled ?? { outcome: 'gone' };
  if (!card.native_language) throw new AppError('language_setup_required', 'The account has no native language set.');

  // The sentence the card is prepared for, read here from the card's own row: never a workflow input.
  const context = card.context_text === null ? null : { text: card.context_text, start: card.context_start!, end: card.context_end! };
  const request = {
    task: PREPARATION_TASK,
    schema: preparationSchemaFor(context),
    ...preparationRequest(card.text, card.native_language, context?.text ?? null),
    maxTokens: OUTPUT_TOKEN_LIMITS.capture_preparation,
    ...(background?.signal ? { signal: background.signal } : {}),
  };
  const unit = preparationChargeKey(ref.cardId, ref.attempt);
  const hold = modelCallHold(model, { userId: card.user_id, key: unit, kind: 'capture_preparation' }, [request]);
  let waitedSeconds = 0;
  return withModelCallHold(em, model, hold, { background, onProviderWait: () => markCardWaiting(ctx, ref) }, async (held) => {
    const answer = await completeWithinBudget(ctx, ref, request).catch(async (error: unknown) => {
      // The provider is down: the card stays pending and says so while its workflow waits (src/domain/retry-policy.ts).
      if (isAppError(error) && error.code === 'service_unavailable') await markCardWaiting(ctx, ref);
      throw error;
    });
    const enrichment = finalisePreparation(card.text, answer.data);
    const stored = await em.transactional(async (tx): Promise<PreparationOutcome | { discarded: PreparationOutcome }> => {
      // The result stored only while this attempt is still the card's pending one, in the statement that locks the
      // card and then the learner's wallet (the card first, as every charge of a card's work does); the charge
      // follows in the same transaction, on that wallet.
      const ready = await firstRow(tx, storePreparation(ref, enrichment, answer.model));
      if (!ready) return { discarded: await discardedOutcome(tx, ref) };
      const { user_id: userId, waited_s: waited, ...wallet } = ready;
      await charge(
        tx,
        { userId, idempotencyKey: unit, providerCostUsd: answer.costUsd, kind: 'capture_preparation', reason: 'capture preparation', ref: ref.cardId },
        // A wallet is made with its account and goes with it: should one be missing, the charge looks for it and says so.
        isWallet(wallet) ? { lockedWallet: wallet } : {},
      );
      waitedSeconds = waited;
      return { outcome: 'ready' };
    });
    if (!('discarded' in stored)) {
      held.settledByCharge = true;
      announceStatusChange(em, { userId: card.user_id, kind: 'card', id: ref.cardId, status: 'ready' });
      preparations.inc({ outcome: 'ready', code: '' });
      if (ref.attempt === 1) captureToReady.observe(waitedSeconds);
      return stored;
    }
    // Deleted, retried or settled meanwhile: the answer is not kept, so nobody pays for it.
    model.recordUnbilled({ task: PREPARATION_TASK, reason: 'superseded', costUsd: answer.costUsd });
    return stored.discarded;
  });
}

type NoWallet = { [column in keyof WalletRow]: null };
const isWallet = (row: WalletRow | NoWallet): row is WalletRow => row.plan !== null;

/**
 * Prepared (src/db/sql.ts): every card's preparation runs it. The learner's wallet is locked and read in the same round
 * trip (WALLET_COLUMNS), after the card: locked, its row is the latest a concurrent charge left.
 */
const storePreparation = preparedStatement(
  'card_preparation_store',
  (ref: PreparationRef, enrichment: unknown, model: string) =>
    sql<{ user_id: string; waited_s: number } & (WalletRow | NoWallet)>`WITH ready AS (
         UPDATE cards SET enrichment = ${JSON.stringify(enrichment)}::jsonb, enrichment_status = 'ready',
           enrichment_error = NULL, prepared_by_model = ${model}, waiting_since = NULL, enriched_at = now(), updated_at = now()
         WHERE id = ${ref.cardId} AND enrichment_attempt = ${ref.attempt} AND enrichment_status = 'pending'
         RETURNING user_id, extract(epoch FROM clock_timestamp() - created_at)::float8 AS waited_s
       )
       SELECT ready.user_id, ready.waited_s, ${walletColumnsOf('wallet')} FROM ready LEFT JOIN LATERAL (
         SELECT ${WALLET_COLUMNS} FROM wallets w JOIN users u ON u.id = w.user_id WHERE w.user_id = ready.user_id FOR UPDATE OF w
       ) wallet ON true`,
);

/** Why an attempt's result was not stored: the card is gone, or the attempt was settled or superseded meanwhile. */
async function discardedOutcome(tx: Em, ref: PreparationRef): Promise<PreparationOutcome> {
  const card = await firstRow<Pick<PreparationCardRow, 'enrichment_status' | 'enrichment_attempt' | 'enrichment_error'>>(
    tx,
    sql`SELECT enrichment_status, enrichment_attempt, enrichment_error FROM cards WHERE id = ${ref.cardId}`,
  );
  if (!card) return { outcome: 'gone' };
  // A card still pending on this attempt was stored by the UPDATE, whose condition is settledOutcome's null.
  return (
    settledOutcome({ status: card.enrichment_status, attempt: card.enrichment_attempt, error: card.enrichment_error }, ref.attempt) ?? { outcome: 'superseded' }
  );
}

const preparationCalls = counter('lcs_card_preparation_model_calls_total', 'Model calls made to prepare cards, by outcome (valid, invalid, unserved)', [
  'outcome',
]);
const budgetsSpent = counter('lcs_card_preparation_budget_spent_total', 'Card preparations that failed because the card had used its model-call budget');

/**
 * The card's model call, within its budget (CARD_PREPARATION_BUDGET): each answered call is taken
 * from the card's count before it is made, so a crash mid-call still counts, and given back when
 * the provider could not serve it. The model client repairs an invalid answer once (it shows the
 * model what was wrong), and that second call is taken from the budget too: none left, no repair.
 * An exhausted budget is a verdict, never retried. Its decisions are told to the operator
 * (`ctx.log`): ids and counts only.
 */
async function completeWithinBudget<T>(ctx: FeatureContext, ref: PreparationRef, request: StructuredRequest<T>): Promise<StructuredResult<T>> {
  const { em, model, log } = ctx;
  const take = async () =>
    (
      await firstRow<{ preparation_calls: number }>(
        em,
        sql`UPDATE cards SET preparation_calls = preparation_calls + 1 WHERE id = ${ref.cardId} AND preparation_calls < ${CARD_PREPARATION_BUDGET.modelCalls}
             RETURNING preparation_calls`,
      )
    )?.preparation_calls ?? null;
  if ((await take()) === null) {
    budgetsSpent.inc();
    log.warn({ cardId: ref.cardId, attempt: ref.attempt, modelCalls: CARD_PREPARATION_BUDGET.modelCalls }, 'card preparation budget spent');
    throw new AppError('provider_output_invalid', BUDGET_SPENT_MESSAGE);
  }
  const mayRepair = async () => {
    preparationCalls.inc({ outcome: 'invalid' });
    const used = await take();
    log.warn({ cardId: ref.cardId, attempt: ref.attempt, modelCallsUsed: used, askingAgain: used !== null }, 'card preparation answer invalid');
    return used !== null;
  };
  try {
    const answer = await model.complete({ ...request, mayRepair });
    preparationCalls.inc({ outcome: 'valid' });
    return answer;
  } catch (error) {
    if (!isAppError(error)) throw error; // cancelled, or the call's fate is unknown: it stays counted
    if (error.code !== 'provider_output_invalid') {
      preparationCalls.inc({ outcome: 'unserved' });
      await run(em, sql`UPDATE cards SET preparation_calls = preparation_calls - 1 WHERE id = ${ref.cardId} AND preparation_calls > 0`);
      throw error;
    }
    preparationCalls.inc({ outcome: 'invalid' });
    log.warn({ cardId: ref.cardId, attempt: ref.attempt, outputProblem: error.extensions.outputProblem }, 'card preparation answer invalid');
    throw error;
  }
}

/**
 * Marks the card's pending attempt as waiting for the provider (`enrichmentWaiting` on the card),
 * from its first provider failure until it settles; announced once, so an open page shows it. Best
 * effort: the failure that led here is what the activity reports, whatever happens to this write.
 */
async function markCardWaiting(ctx: FeatureContext, ref: PreparationRef): Promise<void> {
  try {
    const marked = await firstRow<{ user_id: string }>(
      ctx.em,
      sql`UPDATE cards SET waiting_since = now() WHERE id = ${ref.cardId} AND enrichment_attempt = ${ref.attempt} AND enrichment_status = 'pending'
           AND waiting_since IS NULL RETURNING user_id`,
    );
    if (marked) announceStatusChange(ctx.em, { userId: marked.user_id, kind: 'card', id: ref.cardId, status: 'waiting' });
  } catch (error) {
    ctx.log.warn({ cardId: ref.cardId, err: (error as Error)?.name }, 'could not mark the card waiting');
  }
}

/** Marks the attempt failed (only if it is still the card's pending attempt). */
export async function recordPreparationFailure(ctx: FeatureContext, ref: PreparationRef, error: PreparationError): Promise<void> {
  const { em } = ctx;
  const marked = await firstRow<{ user_id: string }>(
    em,
    sql`UPDATE cards SET enrichment_status = 'failed', enrichment_error = ${JSON.stringify(error)}::jsonb, waiting_since = NULL, updated_at = now()
     WHERE id = ${ref.cardId} AND enrichment_attempt = ${ref.attempt} AND enrichment_status = 'pending' RETURNING user_id`,
  );
  // Counted and announced once per attempt: a retried recording finds the attempt settled already.
  if (!marked) return;
  announceStatusChange(em, { userId: marked.user_id, kind: 'card', id: ref.cardId, status: 'failed' });
  preparations.inc({ outcome: businessOutcomeOf(error.code) ?? 'failed', code: error.code });
}
