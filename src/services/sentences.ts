import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Config } from '../config.ts';
import { Sentence } from '../db/entities/index.ts';
import type { Em, Orm } from '../db/orm.ts';
import { creditsForCost } from '../domain/credits.ts';
import { languageName } from '../domain/languages.ts';
import { normaliseExpression } from '../domain/normalise.ts';
import { AppError, isAppError } from '../domain/problems.ts';
import type { ModelClient } from '../model/model-client.ts';
import { WORKFLOW_KINDS, workflowId } from '../workflows/constants.ts';
import { assertHasCredits, charge } from './wallet.ts';
import { dispatchInBackground, enqueueWorkflow } from './workflow-outbox.ts';

export type SentenceStatus = 'pending' | 'translated' | 'failed';

export interface SentenceView {
  id: string;
  original_text: string;
  translation: string | null;
  status: SentenceStatus;
  native_language: string;
  created_at: string;
}

export interface SentenceDeps {
  orm: Orm;
  model: ModelClient;
  temporal: Client;
  config: Pick<Config, 'temporal'>;
  logger?: Pick<Logger, 'warn'>;
}

/** A sync-mode sentence still pending after this long lost its process; posting it again retries it. */
export const ABANDONED_SYNC_AFTER_MS = 10 * 60_000;

interface SentenceRow {
  id: string;
  user_id: string;
  original_text: string;
  translation: string | null;
  status: SentenceStatus;
  native_language: string;
  attempt: number;
  created_at: Date;
}

const COLUMNS = 'id, user_id, original_text, translation, status, native_language, attempt, created_at';

const view = (r: Pick<SentenceRow, 'id' | 'original_text' | 'translation' | 'status' | 'native_language' | 'created_at'>): SentenceView => ({
  id: r.id,
  original_text: r.original_text,
  translation: r.translation,
  status: r.status,
  native_language: r.native_language,
  created_at: new Date(r.created_at).toISOString(),
});

/**
 * POST /api/sentences. Saves the sentence (once per user and normalised text), then translates
 * it: right away in `sync` mode, or through the `sentence-translation/<id>` workflow in `async`
 * mode (the answer does not wait for it). A failed sentence posted again is translated again
 * under the same id; any other repeat is a 409 `duplicate_sentence`.
 */
export async function submitSentence(
  deps: SentenceDeps,
  input: { userId: string; nativeLanguage: string; text: string; mode: 'sync' | 'async' },
): Promise<SentenceView> {
  const em = deps.orm.em.fork();
  await assertHasCredits(em, input.userId);
  const { row, outboxId } = await em.transactional(async (tx) => {
    const row = await insertOrRetry(tx, input);
    const outboxId = input.mode === 'async'
      ? await enqueueWorkflow(tx, {
          workflowType: 'sentenceTranslationWorkflow',
          workflowId: workflowId(WORKFLOW_KINDS.sentenceTranslation, row.id),
          taskQueue: deps.config.temporal.taskQueue,
          args: [row.id, row.attempt],
          userId: input.userId,
          kind: WORKFLOW_KINDS.sentenceTranslation,
        })
      : null;
    return { row, outboxId };
  });

  if (outboxId !== null) {
    dispatchInBackground(deps.orm, deps.temporal, [outboxId], deps.logger);
    return view(row);
  }
  try {
    return await translateSentence(deps, row.id, row.attempt) ?? view(row);
  } catch (error) {
    const failure = isAppError(error) ? error : new AppError('service_unavailable', 'The translation failed.');
    await markSentenceFailed(em, row.id, row.attempt, failure.code);
    // The sentence stays saved (status "failed"); posting it again retries the translation.
    throw new AppError(failure.code, `${failure.message} The sentence was saved with status "failed"; post it again to retry.`, { ...failure.extensions, sentenceId: row.id });
  }
}

async function insertOrRetry(tx: Em, input: { userId: string; nativeLanguage: string; text: string; mode: 'sync' | 'async' }): Promise<SentenceRow> {
  const dedupKey = normaliseExpression(input.text);
  const [inserted] = await tx.execute<SentenceRow[]>(
    `INSERT INTO sentences (id, user_id, original_text, dedup_key, native_language, mode) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (user_id, dedup_key) DO NOTHING RETURNING ${COLUMNS}`,
    [randomUUID(), input.userId, input.text, dedupKey, input.nativeLanguage, input.mode],
  );
  if (inserted) return inserted;
  // Only one of several identical retries wins the UPDATE; the others see a pending sentence.
  const [retried] = await tx.execute<SentenceRow[]>(
    `UPDATE sentences SET status = 'pending', attempt = attempt + 1, mode = ?, native_language = ?, error_code = NULL, updated_at = clock_timestamp()
     WHERE user_id = ? AND dedup_key = ?
       AND (status = 'failed' OR (status = 'pending' AND mode = 'sync' AND updated_at < clock_timestamp() - (? * interval '1 millisecond')))
     RETURNING ${COLUMNS}`,
    [input.mode, input.nativeLanguage, input.userId, dedupKey, ABANDONED_SYNC_AFTER_MS],
  );
  if (retried) return retried;
  const [existing] = await tx.execute<{ id: string }[]>(`SELECT id FROM sentences WHERE user_id = ? AND dedup_key = ?`, [input.userId, dedupKey]);
  throw new AppError('duplicate_sentence', 'You already saved this sentence.', { existingId: existing?.id ?? null });
}

const translationSchema = z.object({ translation: z.string().trim().min(1) });

const SYSTEM_PROMPT =
  'You translate a sentence a language learner saved. Translate `text` into `target_language` faithfully and naturally, ' +
  'keeping its register. Answer with the translation only, in `translation`: no notes, no quotation marks.';

/**
 * The one translation code path of sentences, used by sync mode and by the workflow's activity.
 * Idempotent: a sentence that is no longer pending under this attempt (done, retried, deleted)
 * is left alone. The charge and the result are written in one transaction, keyed by attempt.
 */
export async function translateSentence(deps: Pick<SentenceDeps, 'orm' | 'model'>, sentenceId: string, attempt: number): Promise<SentenceView | null> {
  const em = deps.orm.em.fork();
  const [row] = await em.execute<SentenceRow[]>(`SELECT ${COLUMNS} FROM sentences WHERE id = ?`, [sentenceId]);
  if (!row || row.status !== 'pending' || row.attempt !== attempt) return null;
  const result = await deps.model.complete({
    task: 'translate_sentence',
    schema: translationSchema,
    system: `${SYSTEM_PROMPT} Target language: ${languageName(row.native_language)}.`,
    input: { text: row.original_text, target_language: row.native_language },
  });
  // Charge and result commit together; the charge is keyed by attempt, so a retried activity
  // cannot bill twice. A sentence that changed meanwhile (retried, deleted) rolls the charge back.
  try {
    return await em.transactional(async (tx) => {
      const charged = creditsForCost('sentence_translation', result.costUsd) > 0
        ? await charge(tx, {
            userId: row.user_id,
            idempotencyKey: `sentence-translation/${sentenceId}/attempt-${attempt}`,
            providerCostUsd: result.costUsd,
            kind: 'sentence_translation',
            reason: 'sentence translation',
            ref: sentenceId,
          })
        : null;
      const [done] = await tx.execute<SentenceRow[]>(
        `UPDATE sentences SET status = 'translated', translation = ?, credits_charged = ?, error_code = NULL, updated_at = clock_timestamp()
         WHERE id = ? AND attempt = ? AND status = 'pending' RETURNING ${COLUMNS}`,
        [result.data.translation, charged?.debited ?? 0, sentenceId, attempt],
      );
      if (!done) throw new SentenceSuperseded();
      return view(done);
    });
  } catch (error) {
    if (error instanceof SentenceSuperseded) return null;
    throw error;
  }
}

class SentenceSuperseded extends Error {}

/** Records a failed attempt; nothing was charged for it. */
export async function markSentenceFailed(em: Em, sentenceId: string, attempt: number, code: string): Promise<void> {
  await em.execute(
    `UPDATE sentences SET status = 'failed', error_code = ?, updated_at = clock_timestamp() WHERE id = ? AND attempt = ? AND status = 'pending'`,
    [code.slice(0, 64), sentenceId, attempt],
  );
}

export async function listSentences(em: Em, userId: string, page: number, pageSize: number) {
  const [rows, total] = await em.findAndCount(
    Sentence,
    { userId },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit: pageSize, offset: (page - 1) * pageSize },
  );
  const items = rows.map((s) => view({
    id: s.id, original_text: s.originalText, translation: s.translation ?? null, status: s.status, native_language: s.nativeLanguage, created_at: s.createdAt,
  }));
  return { items, page, pageSize, total };
}
