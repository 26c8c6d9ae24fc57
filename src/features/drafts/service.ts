import { hash, randomUUID } from 'node:crypto';
import type { Em } from '../../db/orm.ts';
import { sql, firstRow } from '../../db/sql.ts';
import { AppError } from '../../domain/problems.ts';
import type { FeatureContext } from '../context.ts';
import { modelCallHold, withCreditHold } from '../credits/paid-call.ts';
import { charge } from '../credits/wallet.ts';
import { readyCardAnswers } from '../library/card-reads.ts';
import { MAX_LIBRARY_EXPRESSIONS, draftRequest } from './prompts.ts';
import type { Draft, Tone } from './schemas.ts';

export interface DraftInput {
  userId: string;
  prompt: string;
  tone: Tone;
  useLibrary: boolean;
  nativeLanguage: string;
  /** Client's Idempotency-Key, if any: retries under it are charged once. */
  idempotencyKey?: string | undefined;
}

/**
 * A draft (the spec's Output Flow): English for what the user wants to say. Never creates cards. Charged
 * 100 × the provider cost (kind `work`); the draft's maximum cost is held first, so 402 before
 * the model call when no credits are available.
 */
export async function createDraft(ctx: FeatureContext, input: DraftInput): Promise<Draft> {
  const { em, model } = ctx;
  const bodyHash = hash('sha256', JSON.stringify(['work-v1', input.prompt, input.tone, input.useLibrary]));
  // A repeat under a used Idempotency-Key gets the first draft back: no second (unpaid) model call.
  if (input.idempotencyKey !== undefined) {
    const stored = await storedDraft(em, input.userId, input.idempotencyKey, bodyHash);
    if (stored) return stored;
  }
  const expressions = input.useLibrary ? await readyCardAnswers(em, input.userId, MAX_LIBRARY_EXPRESSIONS) : [];
  const request = draftRequest(input, expressions);
  const key = input.idempotencyKey;
  // The unit of work (its hold and its charge) is this call. The stored draft is what makes a
  // repeat free; a key used again after its draft was swept (RETENTION_IDEMPOTENCY_HOURS) is a
  // new draft that must be paid for.
  const unit = `work/${randomUUID()}`;
  return withCreditHold(em, model, modelCallHold(model, { userId: input.userId, key: unit, kind: 'work' }, [request]), undefined, async () => {
    const result = await model.complete(request);
    const draft = { english: result.data.english, notes: result.data.notes, usedCardIds: usedAmong(result.data.usedCardIds, expressions) };
    const answer = await em.transactional(async (tx) => {
      if (key !== undefined) {
        // The draft and its charge commit together; a concurrent twin that stored first wins, and
        // this call returns that draft, uncharged.
        const stored = await firstRow<{ user_id: string }>(
          tx,
          sql`INSERT INTO work_drafts (user_id, idempotency_key, body_hash, response) VALUES (${input.userId}, ${key}, ${bodyHash},
               ${JSON.stringify(draft)}::jsonb)
           ON CONFLICT (user_id, idempotency_key) DO NOTHING RETURNING user_id`,
        );
        if (!stored) return { ...(await storedDraft(tx, input.userId, key, bodyHash))!, twin: true };
      }
      const charged = await charge(tx, {
        userId: input.userId,
        idempotencyKey: unit,
        providerCostUsd: result.costUsd,
        kind: 'work',
        reason: 'Output Flow draft',
      });
      return { ...draft, creditsCharged: charged.charged ? charged.debited : 0, twin: false };
    });
    const { twin, ...response } = answer;
    if (twin) model.recordUnbilled({ task: request.task, reason: 'duplicate', costUsd: result.costUsd });
    return response;
  });
}

/** The draft stored under this key (nothing is charged for it again), or null; 422 for another body. */
async function storedDraft(em: Em, userId: string, key: string, bodyHash: string): Promise<Draft | null> {
  const row = await firstRow<{ body_hash: string; response: Omit<Draft, 'creditsCharged'> }>(
    em,
    sql`SELECT body_hash, response FROM work_drafts WHERE user_id = ${userId} AND idempotency_key = ${key}`,
  );
  if (!row) return null;
  if (row.body_hash !== bodyHash) {
    throw new AppError('request_id_reused', 'This Idempotency-Key was already used for a different request; use a new key for a new request.');
  }
  return { ...row.response, creditsCharged: 0 };
}

/**
 * Only ids that were offered survive, once each, in the model's order: a model that invents or
 * repeats an id must not make the answer point at cards the user does not own.
 */
export function usedAmong(used: readonly string[], offered: readonly { cardId: string }[]): string[] {
  const allowed = new Set(offered.map((e) => e.cardId));
  return [...new Set(used)].filter((id) => allowed.has(id));
}
