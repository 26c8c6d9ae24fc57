import { randomUUID } from 'node:crypto';
import type { Em } from '../../db/orm.ts';
import { sql, allRows, firstRow } from '../../db/sql.ts';
import { creditsForCost } from '../../domain/credits.ts';
import { normaliseExpression } from '../../domain/normalise.ts';
import { AppError, isAppError } from '../../domain/problems.ts';
import type { ModelClient } from '../../model/model-client.ts';
import { LEASE, leaseExpirySql, whileLeased } from '../../services/leases.ts';
import { WORKFLOW_KINDS, workflowId } from '../../temporal/workflow-ids.ts';
import type { FeatureContext } from '../context.ts';
import { type BackgroundCall, modelCallHold, reportLostCalls, withModelCallHold } from '../credits/paid-call.ts';
import { expireEarlierHolds, reserveCredits } from '../credits/holds.ts';
import { charge, lockWallet } from '../credits/wallet.ts';
import { announceStatusChange } from '../status/changes.ts';
import { WAITING_MESSAGE } from '../../domain/retry-policy.ts';
import { sentenceRequest } from './prompts.ts';
import type { SentencePage, SentenceView } from './schemas.ts';

type SentenceStatus = SentenceView['status'];

interface SentenceRow {
  id: string;
  user_id: string;
  original_text: string;
  translation: string | null;
  status: SentenceStatus;
  native_language: string;
  attempt: number;
  waiting_since: Date | null;
  created_at: Date;
}

const COLUMNS = sql`id, user_id, original_text, translation, status, native_language, attempt, waiting_since, created_at`;

const view = (r: Pick<SentenceRow, 'id' | 'original_text' | 'translation' | 'status' | 'native_language' | 'waiting_since' | 'created_at'>): SentenceView => ({
  id: r.id,
  original_text: r.original_text,
  translation: r.translation,
  status: r.status,
  native_language: r.native_language,
  created_at: new Date(r.created_at).toISOString(),
  ...(r.status === 'pending' && r.waiting_since
    ? { waiting: { code: 'service_unavailable', message: WAITING_MESSAGE, since: new Date(r.waiting_since).toISOString() } }
    : {}),
});

/**
 * POST /api/sentences. Saves the sentence (once per user and normalised text), then translates
 * it: right away in `sync` mode, or through the `sentence-translation/<id>` workflow in `async`
 * mode (the answer does not wait for it). A failed sentence posted again is translated again
 * under the same id; any other repeat is a 409 `duplicate_sentence`.
 */
export async function submitSentence(
  ctx: FeatureContext,
  input: { userId: string; nativeLanguage: string; text: string; mode: 'sync' | 'async' },
): Promise<SentenceView> {
  const { em, model, workflows } = ctx;
  const { row, lostCalls } = await em.transactional(async (tx) => {
    await lockWallet(tx, input.userId); // before the sentence row: the order a charge takes them in
    const row = await insertOrRetry(tx, input);
    const hold = sentenceHold(model, row);
    // A retried sentence's earlier attempts are over (failed, or their process died and its lease
    // lapsed): whatever they still hold must not refuse this one.
    if (row.attempt > 1) await expireEarlierHolds(tx, row.user_id, sentenceUnit(row.id), hold.key);
    // Held with the save, so that a sentence the wallet cannot pay for is refused (402) and not saved.
    const { lostCalls } = await reserveCredits(tx, hold);
    // Started by the worker's outbox relay, woken after the commit.
    if (input.mode === 'async') {
      await workflows.enqueue(
        tx,
        workflows.start('sentenceTranslationWorkflow', [row.id, row.attempt], {
          workflowId: workflowId(WORKFLOW_KINDS.sentenceTranslation, row.id),
          userId: input.userId,
          kind: WORKFLOW_KINDS.sentenceTranslation,
        }),
      );
    }
    return { row, lostCalls };
  });
  reportLostCalls(model, lostCalls);

  if (input.mode === 'async') {
    workflows.wakeRelay();
    return view(row);
  }
  try {
    // Leased while it translates: if this process dies, the user's re-post takes over in seconds.
    const lease = { table: 'sentences' as const, where: sql`id = ${row.id} AND attempt = ${row.attempt} AND status = 'pending'` };
    return (await whileLeased(em, lease, () => translateSentence(ctx, row.id, row.attempt), ctx.log)) ?? view(row);
  } catch (error) {
    const failure = isAppError(error) ? error : new AppError('service_unavailable', 'The translation failed.');
    await markSentenceFailed(ctx, row.id, row.attempt, failure.code);
    // The sentence stays saved (status "failed"); posting it again retries the translation.
    throw new AppError(failure.code, `${failure.message} The sentence was saved with status "failed"; post it again to retry.`, {
      ...failure.extensions,
      sentenceId: row.id,
    });
  }
}

async function insertOrRetry(tx: Em, input: { userId: string; nativeLanguage: string; text: string; mode: 'sync' | 'async' }): Promise<SentenceRow> {
  const dedupKey = normaliseExpression(input.text);
  // A sync translation runs under a lease (src/services/leases.ts); an async one belongs to its workflow.
  const lease = input.mode === 'sync' ? LEASE.durationMs : null;
  const inserted = await firstRow<SentenceRow>(
    tx,
    sql`INSERT INTO sentences (id, user_id, original_text, dedup_key, native_language, mode, lease_expires_at)
     VALUES (${randomUUID()}, ${input.userId}, ${input.text}, ${dedupKey}, ${input.nativeLanguage}, ${input.mode}, ${leaseExpirySql(lease)})
     ON CONFLICT (user_id, dedup_key) DO NOTHING RETURNING ${COLUMNS}`,
  );
  if (inserted) return inserted;
  // A failed sentence, or a sync one whose owner stopped renewing its lease (its process died), is
  // retried. Only one of several identical retries wins the UPDATE; the others see it pending.
  const retried = await firstRow<SentenceRow>(
    tx,
    sql`UPDATE sentences SET status = 'pending', attempt = attempt + 1, mode = ${input.mode}, native_language = ${input.nativeLanguage}, error_code = NULL,
       waiting_since = NULL, lease_expires_at = ${leaseExpirySql(lease)}, updated_at = clock_timestamp()
     WHERE user_id = ${input.userId} AND dedup_key = ${dedupKey}
       AND (status = 'failed' OR (status = 'pending' AND mode = 'sync' AND lease_expires_at < clock_timestamp()))
     RETURNING ${COLUMNS}`,
  );
  if (retried) return retried;
  const existing = await firstRow<{ id: string }>(tx, sql`SELECT id FROM sentences WHERE user_id = ${input.userId} AND dedup_key = ${dedupKey}`);
  throw new AppError('duplicate_sentence', 'You already saved this sentence.', { existingId: existing?.id ?? null });
}

/** The prefix of every unit of work of a sentence's attempts. */
const sentenceUnit = (sentenceId: string) => `sentence-translation/${sentenceId}/`;

/** A sentence attempt's unit of work: the key of its hold and of its charge. */
const sentenceHold = (model: ModelClient, row: Pick<SentenceRow, 'id' | 'user_id' | 'attempt' | 'original_text' | 'native_language'>) =>
  modelCallHold(model, { userId: row.user_id, key: `${sentenceUnit(row.id)}attempt-${row.attempt}`, kind: 'sentence_translation' }, [
    sentenceRequest(row.original_text, row.native_language),
  ]);

/**
 * The one translation code path of sentences, used by sync mode and by the workflow's activity.
 * Idempotent: a sentence that is no longer pending under this attempt (done, retried, deleted)
 * is left alone. The charge and the result are written in one transaction, keyed by attempt.
 */
export async function translateSentence(ctx: FeatureContext, sentenceId: string, attempt: number, background?: BackgroundCall): Promise<SentenceView | null> {
  const { em, model } = ctx;
  const row = await firstRow<SentenceRow>(em, sql`SELECT ${COLUMNS} FROM sentences WHERE id = ${sentenceId}`);
  if (!row || row.status !== 'pending' || row.attempt !== attempt) return null;
  const hold = sentenceHold(model, row);
  const onProviderWait = () => markSentenceWaiting(ctx, sentenceId, attempt);
  return withModelCallHold(em, model, hold, { background, onProviderWait }, async () => {
    const result = await model.complete(sentenceRequest(row.original_text, row.native_language)).catch(async (error: unknown) => {
      // Background work waits the provider's outage out (src/domain/retry-policy.ts); the sentence says so meanwhile.
      if (background && isAppError(error) && error.code === 'service_unavailable') await markSentenceWaiting(ctx, sentenceId, attempt);
      throw error;
    });
    // Charge and result commit together; the charge is keyed by attempt, so a retried activity
    // cannot bill twice. A sentence that changed meanwhile (retried, deleted) rolls the charge back.
    try {
      const translated = await em.transactional(async (tx) => {
        const charged =
          creditsForCost('sentence_translation', result.costUsd) > 0
            ? await charge(tx, {
                userId: row.user_id,
                idempotencyKey: hold.key,
                providerCostUsd: result.costUsd,
                kind: 'sentence_translation',
                reason: 'sentence translation',
                ref: sentenceId,
              })
            : null;
        const done = await firstRow<SentenceRow>(
          tx,
          sql`UPDATE sentences SET status = 'translated', translation = ${result.data.translation}, credits_charged = ${charged?.debited ?? 0},
               error_code = NULL, waiting_since = NULL, updated_at = clock_timestamp()
           WHERE id = ${sentenceId} AND attempt = ${attempt} AND status = 'pending' RETURNING ${COLUMNS}`,
        );
        if (!done) throw new SentenceSuperseded();
        return view(done);
      });
      announceStatusChange(em, { userId: row.user_id, kind: 'sentence', id: sentenceId, status: 'translated' });
      return translated;
    } catch (error) {
      if (!(error instanceof SentenceSuperseded)) throw error;
      model.recordUnbilled({ task: 'translate_sentence', reason: 'superseded', costUsd: result.costUsd });
      return null;
    }
  });
}

class SentenceSuperseded extends Error {}

/** Marks an async sentence's attempt as waiting for the provider (its `waiting`), announced once; best effort. */
async function markSentenceWaiting(ctx: FeatureContext, sentenceId: string, attempt: number): Promise<void> {
  try {
    const marked = await firstRow<{ user_id: string }>(
      ctx.em,
      sql`UPDATE sentences SET waiting_since = clock_timestamp() WHERE id = ${sentenceId} AND attempt = ${attempt} AND status = 'pending'
           AND waiting_since IS NULL RETURNING user_id`,
    );
    if (marked) announceStatusChange(ctx.em, { userId: marked.user_id, kind: 'sentence', id: sentenceId, status: 'waiting' });
  } catch (error) {
    ctx.log.warn({ sentenceId, err: (error as Error)?.name }, 'could not mark the sentence waiting');
  }
}

/** Records a failed attempt; nothing was charged for it. */
export async function markSentenceFailed(ctx: FeatureContext, sentenceId: string, attempt: number, code: string): Promise<void> {
  const { em } = ctx;
  const marked = await firstRow<{ user_id: string }>(
    em,
    sql`UPDATE sentences SET status = 'failed', error_code = ${code.slice(0, 64)}, waiting_since = NULL, updated_at = clock_timestamp() WHERE id = ${sentenceId}
         AND attempt = ${attempt} AND status = 'pending' RETURNING user_id`,
  );
  if (marked) announceStatusChange(em, { userId: marked.user_id, kind: 'sentence', id: sentenceId, status: 'failed' });
}

export async function listSentences(ctx: FeatureContext, userId: string, page: number, pageSize: number): Promise<SentencePage> {
  const { em } = ctx;
  const rows = await allRows<SentenceRow>(
    em,
    sql`SELECT ${COLUMNS} FROM sentences WHERE user_id = ${userId} ORDER BY created_at DESC, id DESC LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
  );
  const counted = await firstRow<{ total: number }>(em, sql`SELECT count(*)::int AS total FROM sentences WHERE user_id = ${userId}`);
  return { items: rows.map(view), page, pageSize, total: counted!.total };
}
