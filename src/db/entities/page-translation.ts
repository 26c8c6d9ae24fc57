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

/** One cached translation, shared by all users; keyed by a hash, the source text is not stored. */
export const TranslationCacheEntry = defineEntity({
  name: 'TranslationCacheEntry',
  tableName: 'translation_cache',
  properties: {
    cacheKey: p.text().primary(),
    sourceLanguage: p.string(),
    targetLanguage: p.string(),
    model: p.text(),
    promptVersion: p.string(),
    translation: p.text(),
    detectedSourceLanguage: p.string(),
    createdAt: p.datetime(),
  },
});

export const pageTranslationEntities = [PageTranslationRequest, TranslationCacheEntry];
