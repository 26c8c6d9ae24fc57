import { defineEntity, p } from '@mikro-orm/postgresql';

/** The idempotency record of one POST /api/immersive-translate per (user, request_id). */
export const PageTranslationRequest = defineEntity({
  name: 'PageTranslationRequest',
  tableName: 'page_translation_requests',
  properties: {
    userId: p.uuid().primary(),
    requestId: p.text().primary(),
    bodyHash: p.text(),
    status: p.enum(['running', 'done'] as const),
    claimToken: p.uuid(),
    claimedAt: p.datetime(),
    response: p.json<Record<string, unknown>>().nullable(),
    creditsCharged: p.integer().nullable(),
    completedAt: p.datetime().nullable(),
  },
});

/**
 * One cached translation; keyed by a hash, the source text is not stored. `contextId` is null
 * when its provider call carried this text alone, else the call it came from.
 */
export const TranslationCacheEntry = defineEntity({
  name: 'TranslationCacheEntry',
  tableName: 'translation_cache',
  properties: {
    id: p.bigint().primary(),
    cacheKey: p.text(),
    contextId: p.bigint().nullable(),
    sourceLanguage: p.string(),
    targetLanguage: p.string(),
    model: p.text(),
    promptVersion: p.string(),
    translation: p.text(),
    detectedSourceLanguage: p.string(),
    createdAt: p.datetime(),
  },
});

/** A provider call that carried several texts: who sent it and the cache keys of all its texts. */
export const TranslationContext = defineEntity({
  name: 'TranslationContext',
  tableName: 'translation_contexts',
  properties: {
    id: p.bigint().primary(),
    requestedBy: p.uuid().nullable(),
    cacheKeys: p.array(),
    createdAt: p.datetime(),
  },
});

export const pageTranslationEntities = [PageTranslationRequest, TranslationCacheEntry, TranslationContext];
