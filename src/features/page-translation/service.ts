import { randomUUID } from 'node:crypto';
import type { Em } from '../../db/orm.ts';
import { sql, allRows, firstRow, preparedStatement, run } from '../../db/sql.ts';
import { creditsForCost } from '../../domain/credits.ts';
import { AppError } from '../../domain/problems.ts';
import { prepareItemText, requestHash, translationCacheKey, type PageTranslationRequest } from './request.ts';
import { planProviderCalls } from './sharing.ts';
import type { ModelClient } from '../../model/model-client.ts';
import { batchCalls, PROVIDER_CALL_BUDGET, translateCalls } from './batch-translator.ts';
import { LEASE, leaseExpirySql, whileLeased } from '../../services/leases.ts';
import type { FeatureContext } from '../context.ts';
import { holdCredits, modelCallHold } from '../credits/paid-call.ts';
import { lookupTranslations, storeTranslations, TRANSLATE_BATCH_PROMPT_VERSION, type CachedTranslation } from './cache.ts';
import { expireEarlierHolds, releaseHold } from '../credits/holds.ts';
import { charge } from '../credits/wallet.ts';

import type { PageTranslationResponse } from './schemas.ts';

type Claim = { kind: 'claimed'; token: string; tookOver: boolean } | { kind: 'replay'; response: PageTranslationResponse };

/**
 * POST /api/immersive-translate. `request_id` is an idempotency key per user: the first request
 * claims it, a repeat gets the stored answer (`replayed`), a different body under the same id is
 * refused, and a failure releases the claim so that the id can be retried.
 */
export async function translatePage(
  ctx: FeatureContext,
  userId: string,
  request: PageTranslationRequest,
): Promise<{ response: PageTranslationResponse; replayed: boolean }> {
  const { em } = ctx;
  const bodyHash = requestHash(request);
  const page = await lookupPage(ctx, userId, request);
  if (page.uncached.size === 0) {
    // Served wholly from the cache: nothing is held, charged or leased, so the request_id is
    // recorded done at once, in one statement; a request_id seen before takes the path below.
    const response = pageResponse(request, page, 0);
    if (await recordFreeAnswer(em, userId, request.request_id, bodyHash, response)) return { response, replayed: false };
  }
  const claim = await claimRequest(em, userId, request.request_id, bodyHash);
  if (claim.kind === 'replay') return { response: claim.response, replayed: true };
  // The claim taken over lost its process: what that one still holds must not refuse this one.
  if (claim.tookOver) await expireEarlierHolds(em, userId, pageTranslationUnit(request.request_id), pageTranslationKey(request.request_id, claim.token));
  try {
    // Leased while it runs: if this process dies, a retry of the request_id takes over in seconds.
    const lease = {
      table: 'page_translation_requests' as const,
      where: sql`user_id = ${userId} AND request_id = ${request.request_id}
      AND claim_token = ${claim.token} AND status = 'running'`,
    };
    return { response: await whileLeased(em, lease, () => runClaimed(ctx, userId, request, claim.token, page), ctx.log), replayed: false };
  } catch (error) {
    await run(
      em,
      sql`DELETE FROM page_translation_requests WHERE user_id = ${userId} AND request_id = ${request.request_id} AND claim_token = ${claim.token}
           AND status = 'running'`,
    );
    throw error;
  } finally {
    // Settled by the charge, or freed when nothing was charged; should this fail, the hold lapses.
    await releaseHold(em, userId, pageTranslationKey(request.request_id, claim.token)).catch(() => {});
  }
}

/**
 * The unit of work of a page translation, its hold and its charge: one claim of the request_id.
 * The claim row makes the charge once; a request_id used again after its record was swept
 * (RETENTION_IDEMPOTENCY_HOURS) is a new request that must be paid for.
 */
const pageTranslationUnit = (requestId: string) => `page-translation/${requestId}/`;
const pageTranslationKey = (requestId: string, claimToken: string) => `${pageTranslationUnit(requestId)}${claimToken}`;

/** Prepared (src/db/sql.ts): every page not wholly cached runs it. */
const claim = preparedStatement(
  'page_translation_claim',
  (userId: string, requestId: string, bodyHash: string, token: string) =>
    sql<{
      claim_token: string;
      took_over: boolean;
    }>`INSERT INTO page_translation_requests (user_id, request_id, body_hash, status, claim_token, lease_expires_at)
     VALUES (${userId}, ${requestId}, ${bodyHash}, 'running', ${token}, ${leaseExpirySql(LEASE.durationMs)})
     ON CONFLICT (user_id, request_id) DO UPDATE
       SET body_hash = EXCLUDED.body_hash, claim_token = EXCLUDED.claim_token, claimed_at = now(), lease_expires_at = EXCLUDED.lease_expires_at
       WHERE page_translation_requests.status = 'running'
         AND page_translation_requests.lease_expires_at < clock_timestamp()
     RETURNING claim_token, xmax <> 0 AS took_over`,
);

/**
 * Claims the request_id under a lease (src/services/leases.ts). A running claim whose lease has
 * lapsed lost its process, and this request takes it over.
 */
async function claimRequest(em: Em, userId: string, requestId: string, bodyHash: string): Promise<Claim> {
  // A claimant that fails deletes its row; a request arriving just then finds no row and tries again.
  for (let round = 0; round < 3; round++) {
    const token = randomUUID();
    const claimed = await firstRow(em, claim(userId, requestId, bodyHash, token));
    // xmax is set on a row the upsert updated: an earlier claim was taken over, not a new one inserted.
    if (claimed) return { kind: 'claimed', token, tookOver: claimed.took_over };
    const existing = await firstRow<{ body_hash: string; status: 'running' | 'done'; response: PageTranslationResponse | null }>(
      em,
      sql`SELECT body_hash, status, response FROM page_translation_requests WHERE user_id = ${userId} AND request_id = ${requestId}`,
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

/** Prepared (src/db/sql.ts): every page served wholly from the cache runs it. */
const freeAnswer = preparedStatement(
  'page_translation_free_answer',
  (userId: string, requestId: string, bodyHash: string, responseJson: string) =>
    sql`INSERT INTO page_translation_requests (user_id, request_id, body_hash, status, claim_token, response, credits_charged, completed_at)
     VALUES (${userId}, ${requestId}, ${bodyHash}, 'done', ${randomUUID()}, ${responseJson}::jsonb, 0, now())
     ON CONFLICT (user_id, request_id) DO NOTHING RETURNING 1`,
);

/** Records a page served wholly from the cache as done; false when its request_id exists already. */
async function recordFreeAnswer(em: Em, userId: string, requestId: string, bodyHash: string, response: PageTranslationResponse): Promise<boolean> {
  const inserted = await allRows(em, freeAnswer(userId, requestId, bodyHash, JSON.stringify(response)));
  return inserted.length === 1;
}

type PageLookup = Awaited<ReturnType<typeof lookupPage>>;

/** The page's items, their cache keys, the answers the cache may serve, and the texts it cannot (`uncached`). */
async function lookupPage(ctx: FeatureContext, userId: string, request: PageTranslationRequest) {
  const modelName = ctx.config.model.model;
  const keyOf = (text: string) =>
    translationCacheKey({
      promptVersion: TRANSLATE_BATCH_PROMPT_VERSION,
      model: modelName,
      sourceLanguage: request.source_language,
      targetLanguage: request.target_language,
      text,
    });
  const prepared = request.items.map((item) => {
    const parts = prepareItemText(item.text);
    return { ...item, ...parts, cacheKey: parts.core === '' ? null : keyOf(parts.core) };
  });

  const { found: translations, recurring } = await lookupTranslations(ctx.em, userId, [...new Set(prepared.flatMap((p) => (p.cacheKey ? [p.cacheKey] : [])))]);
  // Identical texts within the batch go to the provider once.
  const uncached = new Map<string, string>();
  for (const p of prepared) if (p.cacheKey && !translations.has(p.cacheKey)) uncached.set(p.cacheKey, p.core);
  return { prepared, translations, recurring, uncached };
}

async function runClaimed(ctx: FeatureContext, userId: string, request: PageTranslationRequest, token: string, page: PageLookup) {
  const { em } = ctx;
  const { translations, recurring, uncached } = page;
  let costUsd = '0';
  if (uncached.size > 0) {
    // A page served wholly from the cache is free and needs no credits.
    const fresh = await translateMissing(ctx, userId, request, token, uncached, recurring);
    for (const entry of fresh.kept) translations.set(entry.key, entry);
    if (fresh.failure) throw await chargeKeptWork(em, userId, request, token, fresh.failure, { texts: fresh.kept.length, costUsd: fresh.costUsd });
    costUsd = fresh.costUsd;
  }
  return finish(em, ctx.model, userId, request, token, pageResponse(request, page, 0).items, costUsd);
}

/** The answer to the page from what `page.translations` holds (an item without one is returned untranslated). */
function pageResponse(request: PageTranslationRequest, page: Pick<PageLookup, 'prepared' | 'translations'>, creditsCharged: number): PageTranslationResponse {
  const auto = request.source_language === 'auto';
  const items = page.prepared.map((p) => {
    const found: CachedTranslation | undefined = p.cacheKey ? page.translations.get(p.cacheKey) : undefined;
    if (!found) return { id: p.id, text: p.text, detected_source_language: auto ? 'und' : request.source_language };
    return {
      id: p.id,
      text: `${p.leading}${found.translation}${p.trailing}`,
      detected_source_language: auto ? found.detectedSourceLanguage : request.source_language,
    };
  });
  return { request_id: request.request_id, target_language: request.target_language, items, credits_charged: creditsCharged };
}

/**
 * Translates the texts no cached answer may serve (sharing.ts decides the calls) and
 * keeps every answer that passed validation, also when another call of the page failed: the
 * provider was paid for it, and the user is charged for it (chargeKeptWork).
 */
async function translateMissing(
  ctx: FeatureContext,
  userId: string,
  request: PageTranslationRequest,
  token: string,
  uncached: Map<string, string>,
  recurring: Set<string>,
) {
  const { em, model } = ctx;
  // The provider sees an index of ours as each text's id, never a cache key or a client id.
  const entries = [...uncached].map(([cacheKey, text], index) => ({ key: String(index), text, cacheKey }));
  const languages = { sourceLanguage: request.source_language, targetLanguage: request.target_language };
  const calls = batchCalls(
    languages,
    planProviderCalls(entries, (entry) => recurring.has(entry.cacheKey), PROVIDER_CALL_BUDGET),
  );
  // The page's maximum cost, all its calls together, is held before any of them (402 when nothing is available).
  const hold = modelCallHold(
    model,
    { userId, key: pageTranslationKey(request.request_id, token), kind: 'page_translation' },
    calls.map((call) => call.request),
  );
  await holdCredits(em, model, hold, undefined);
  const result = await translateCalls(model, calls);
  const answered = result.calls.map((call) => ({
    keys: call.requested.map((entry) => entry.cacheKey),
    answers: call.requested.map((entry) => {
      const answer = call.entries.get(entry.key)!;
      return { key: entry.cacheKey, translation: answer.text, detectedSourceLanguage: answer.detectedSourceLanguage };
    }),
  }));
  await storeTranslations(em, userId, answered, { ...languages, model: ctx.config.model.model });
  return { kept: answered.flatMap((call) => call.answers), costUsd: result.costUsd, failure: result.failure };
}

/**
 * A page whose calls partly failed fails as a whole, but the answers that succeeded were paid to
 * the provider and stay in the cache, where the retry finds them free. So they are charged now,
 * under a key of this claim (the retry's claim charges the rest under its own key), and the
 * problem says so: delivered work is never given away, and nothing is charged twice. The charge
 * settles the page's credit hold to what was kept, in its own transaction.
 */
async function chargeKeptWork(
  em: Em,
  userId: string,
  request: PageTranslationRequest,
  token: string,
  failure: AppError,
  kept: { texts: number; costUsd: string },
): Promise<AppError> {
  if (creditsForCost('page_translation', kept.costUsd) === 0) return failure;
  const charged = await charge(em, {
    userId,
    idempotencyKey: `${pageTranslationUnit(request.request_id)}kept/${token}`,
    providerCostUsd: kept.costUsd,
    kind: 'page_translation',
    reason: `page translation: ${kept.texts} text(s) kept from a request that failed`,
    ref: request.request_id,
    settlesHold: pageTranslationKey(request.request_id, token),
  });
  return new AppError(
    failure.code,
    `${failure.message} The ${kept.texts} text(s) translated before the failure were kept and charged (${charged.debited} credits); the same request_id ` +
      `now translates only the rest.`,
    { ...failure.extensions, credits_charged: charged.debited },
  );
}

/** Charges and stores the answer atomically, unless a later claimant took this request over. */
async function finish(
  em: Em,
  model: ModelClient,
  userId: string,
  request: PageTranslationRequest,
  token: string,
  items: PageTranslationResponse['items'],
  costUsd: string,
) {
  const response: PageTranslationResponse = { request_id: request.request_id, target_language: request.target_language, items, credits_charged: 0 };
  if (creditsForCost('page_translation', costUsd) === 0) {
    // Nothing to charge (e.g. served from the cache): one conditional write, no transaction.
    await run(
      em,
      sql`UPDATE page_translation_requests SET status = 'done', response = ${JSON.stringify(response)}::jsonb, credits_charged = 0, completed_at = now()
       WHERE user_id = ${userId} AND request_id = ${request.request_id} AND claim_token = ${token} AND status = 'running'`,
    );
    return response;
  }
  return em.transactional(async (tx) => {
    const mine = await firstRow(
      tx,
      sql`SELECT 1 FROM page_translation_requests WHERE user_id = ${userId} AND request_id = ${request.request_id} AND claim_token = ${token}
           AND status = 'running' FOR UPDATE`,
    );
    if (!mine) {
      // Superseded after our claim went stale: the other run charges and stores; this call's cost is nobody's.
      model.recordUnbilled({ task: 'translate_batch', reason: 'superseded', costUsd });
      return response;
    }
    const charged = await charge(tx, {
      userId,
      idempotencyKey: pageTranslationKey(request.request_id, token),
      providerCostUsd: costUsd,
      kind: 'page_translation',
      reason: `page translation of ${items.length} item(s)`,
      ref: request.request_id,
    });
    response.credits_charged = charged.debited;
    await run(
      tx,
      sql`UPDATE page_translation_requests SET status = 'done', response = ${JSON.stringify(response)}::jsonb, credits_charged = ${response.credits_charged},
           completed_at = now()
       WHERE user_id = ${userId} AND request_id = ${request.request_id}`,
    );
    return response;
  });
}
