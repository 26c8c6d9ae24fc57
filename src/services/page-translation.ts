import { randomUUID } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Em, Orm } from '../db/orm.ts';
import { creditsForCost } from '../domain/credits.ts';
import { AppError } from '../domain/problems.ts';
import type { RequestedEntry } from '../domain/translation-batch.ts';
import { prepareItemText, requestHash, translationCacheKey, type TranslationRequest } from '../domain/translation-request.ts';
import type { ModelClient } from '../model/model-client.ts';
import { translateEntries } from './batch-translator.ts';
import { lookupTranslations, storeTranslations, TRANSLATE_BATCH_PROMPT_VERSION, type CachedTranslation } from './translation-cache.ts';
import { assertHasCredits, charge } from './wallet.ts';

export interface PageTranslationResponse {
  request_id: string;
  target_language: string;
  items: { id: string; text: string; detected_source_language: string }[];
  credits_charged: number;
}

export interface PageTranslationDeps {
  orm: Orm;
  model: ModelClient;
  config: Pick<Config, 'model'>;
}

/**
 * A 'running' claim older than this belongs to a process that died (or hung past every model
 * timeout and retry); another request with the same request_id may then take it over.
 */
export const claimTimeoutMs = (config: Pick<Config, 'model'>) => config.model.timeoutMs * (config.model.maxRetries + 1) + 30_000;

type Claim = { kind: 'claimed'; token: string } | { kind: 'replay'; response: PageTranslationResponse };

/**
 * POST /api/immersive-translate. `request_id` is an idempotency key per user: the first request
 * claims it, a repeat gets the stored answer (`replayed`), a different body under the same id is
 * refused, and a failure releases the claim so that the id can be retried.
 */
export async function translatePage(
  deps: PageTranslationDeps,
  userId: string,
  request: TranslationRequest,
): Promise<{ response: PageTranslationResponse; replayed: boolean }> {
  const em = deps.orm.em.fork();
  const claim = await claimRequest(em, userId, request.request_id, requestHash(request), claimTimeoutMs(deps.config));
  if (claim.kind === 'replay') return { response: claim.response, replayed: true };
  try {
    return { response: await runClaimed(deps, em, userId, request, claim.token), replayed: false };
  } catch (error) {
    await em.execute(
      `DELETE FROM page_translation_requests WHERE user_id = ? AND request_id = ? AND claim_token = ? AND status = 'running'`,
      [userId, request.request_id, claim.token],
    );
    throw error;
  }
}

async function claimRequest(em: Em, userId: string, requestId: string, bodyHash: string, staleAfterMs: number): Promise<Claim> {
  // A claimant that fails deletes its row; a request arriving just then finds no row and tries again.
  for (let round = 0; round < 3; round++) {
    const token = randomUUID();
    const [claimed] = await em.execute<{ claim_token: string }[]>(
      `INSERT INTO page_translation_requests (user_id, request_id, body_hash, status, claim_token)
       VALUES (?, ?, ?, 'running', ?)
       ON CONFLICT (user_id, request_id) DO UPDATE
         SET body_hash = EXCLUDED.body_hash, claim_token = EXCLUDED.claim_token, claimed_at = now()
         WHERE page_translation_requests.status = 'running'
           AND page_translation_requests.claimed_at < now() - (? * interval '1 millisecond')
       RETURNING claim_token`,
      [userId, requestId, bodyHash, token, staleAfterMs],
    );
    if (claimed) return { kind: 'claimed', token };
    const [existing] = await em.execute<{ body_hash: string; status: 'running' | 'done'; response: PageTranslationResponse | null }[]>(
      `SELECT body_hash, status, response FROM page_translation_requests WHERE user_id = ? AND request_id = ?`,
      [userId, requestId],
    );
    if (!existing) continue;
    if (existing.body_hash !== bodyHash) {
      throw new AppError('request_id_reused', 'This request_id was already used for a different request body; use a new request_id for a new batch.');
    }
    if (existing.status === 'running') {
      throw new AppError('request_in_progress', 'A request with this request_id is still being translated; retry shortly for its result.');
    }
    return { kind: 'replay', response: existing.response! };
  }
  throw new AppError('request_in_progress', 'A request with this request_id is being retried concurrently; retry shortly.');
}

async function runClaimed(deps: PageTranslationDeps, em: Em, userId: string, request: TranslationRequest, token: string) {
  const modelName = deps.config.model.model;
  const keyOf = (text: string) =>
    translationCacheKey({ promptVersion: TRANSLATE_BATCH_PROMPT_VERSION, model: modelName, sourceLanguage: request.source_language, targetLanguage: request.target_language, text });
  const prepared = request.items.map((item) => {
    const parts = prepareItemText(item.text);
    return { ...item, ...parts, cacheKey: parts.core === '' ? null : keyOf(parts.core) };
  });

  const translations = await lookupTranslations(em, [...new Set(prepared.flatMap((p) => (p.cacheKey ? [p.cacheKey] : [])))]);
  // Identical texts within the batch go to the provider once.
  const uncached = new Map<string, string>();
  for (const p of prepared) if (p.cacheKey && !translations.has(p.cacheKey)) uncached.set(p.cacheKey, p.core);

  let costUsd = '0';
  if (uncached.size > 0) {
    // Nothing is spent on an empty wallet; a page served wholly from the cache is free and needs no credits.
    await assertHasCredits(em, userId);
    const keys = [...uncached.keys()];
    const entries: RequestedEntry[] = keys.map((key, index) => ({ key: String(index), text: uncached.get(key)! }));
    const result = await translateEntries(deps.model, { sourceLanguage: request.source_language, targetLanguage: request.target_language, entries });
    const fresh = keys.flatMap((key, index) => {
      const entry = result.entries.get(String(index));
      return entry ? [{ key, entry }] : [];
    });
    await storeTranslations(em, fresh.map(({ key, entry }) => ({
      key, sourceLanguage: request.source_language, targetLanguage: request.target_language, model: modelName,
      translation: entry.text, detectedSourceLanguage: entry.detectedSourceLanguage,
    })));
    if (result.failure) throw result.failure;
    for (const { key, entry } of fresh) translations.set(key, { translation: entry.text, detectedSourceLanguage: entry.detectedSourceLanguage });
    costUsd = result.costUsd;
  }

  const auto = request.source_language === 'auto';
  const items = prepared.map((p) => {
    const found: CachedTranslation | undefined = p.cacheKey ? translations.get(p.cacheKey) : undefined;
    if (!found) return { id: p.id, text: p.text, detected_source_language: auto ? 'und' : request.source_language };
    return {
      id: p.id,
      text: `${p.leading}${found.translation}${p.trailing}`,
      detected_source_language: auto ? found.detectedSourceLanguage : request.source_language,
    };
  });
  return finish(em, userId, request, token, items, costUsd);
}

/** Charges and stores the answer atomically, unless a later claimant took this request over. */
async function finish(em: Em, userId: string, request: TranslationRequest, token: string, items: PageTranslationResponse['items'], costUsd: string) {
  const response: PageTranslationResponse = { request_id: request.request_id, target_language: request.target_language, items, credits_charged: 0 };
  if (creditsForCost('page_translation', costUsd) === 0) {
    // Nothing to charge (e.g. served from the cache): one conditional write, no transaction.
    await em.execute(
      `UPDATE page_translation_requests SET status = 'done', response = ?::jsonb, credits_charged = 0, completed_at = now()
       WHERE user_id = ? AND request_id = ? AND claim_token = ? AND status = 'running'`,
      [JSON.stringify(response), userId, request.request_id, token],
    );
    return response;
  }
  return em.transactional(async (tx) => {
    const [mine] = await tx.execute(
      `SELECT 1 FROM page_translation_requests WHERE user_id = ? AND request_id = ? AND claim_token = ? AND status = 'running' FOR UPDATE`,
      [userId, request.request_id, token],
    );
    if (!mine) return response; // superseded after our claim went stale: the other run charges and stores
    const charged = await charge(tx, {
      userId,
      idempotencyKey: `page-translation/${request.request_id}`,
      providerCostUsd: costUsd,
      kind: 'page_translation',
      reason: `page translation of ${items.length} item(s)`,
      ref: request.request_id,
    });
    response.credits_charged = charged.debited;
    await tx.execute(
      `UPDATE page_translation_requests SET status = 'done', response = ?::jsonb, credits_charged = ?, completed_at = now()
       WHERE user_id = ? AND request_id = ?`,
      [JSON.stringify(response), response.credits_charged, userId, request.request_id],
    );
    return response;
  });
}
