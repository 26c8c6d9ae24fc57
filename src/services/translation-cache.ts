import type { Em } from '../db/orm.ts';

/**
 * The page-translation cache, shared by all users. Keys come from `translationCacheKey` (prompt
 * version, model, language pair, normalised text); an entry is written only after the provider's
 * answer passed validation, and never with an empty translation (the table refuses one too).
 */

/** Bump when the prompt or the output rules change: old entries then stop matching. */
export const TRANSLATE_BATCH_PROMPT_VERSION = 'translate-batch-v1';

export interface CachedTranslation {
  translation: string;
  detectedSourceLanguage: string;
}

export interface CacheEntry extends CachedTranslation {
  key: string;
  sourceLanguage: string;
  targetLanguage: string;
  model: string;
}

export async function lookupTranslations(em: Em, keys: readonly string[]): Promise<Map<string, CachedTranslation>> {
  if (keys.length === 0) return new Map();
  const rows = await em.execute<{ cache_key: string; translation: string; detected_source_language: string }[]>(
    `SELECT cache_key, translation, detected_source_language FROM translation_cache
     WHERE cache_key IN (SELECT jsonb_array_elements_text(?::jsonb))`,
    [JSON.stringify(keys)],
  );
  return new Map(rows.map((r) => [r.cache_key, { translation: r.translation, detectedSourceLanguage: r.detected_source_language }]));
}

/** First writer wins: a concurrent identical translation is simply not stored twice. */
export async function storeTranslations(em: Em, entries: readonly CacheEntry[]): Promise<void> {
  const usable = entries.filter((e) => e.translation.trim() !== '');
  if (usable.length === 0) return;
  // One statement for the whole batch; rows travel as one JSON parameter.
  await em.execute(
    `INSERT INTO translation_cache (cache_key, source_language, target_language, model, prompt_version, translation, detected_source_language)
     SELECT e.key, e.source, e.target, e.model, ?, e.translation, e.detected
     FROM jsonb_to_recordset(?::jsonb) AS e(key text, source text, target text, model text, translation text, detected text)
     ON CONFLICT (cache_key) DO NOTHING`,
    [
      TRANSLATE_BATCH_PROMPT_VERSION,
      JSON.stringify(usable.map((e) => ({
        key: e.key, source: e.sourceLanguage, target: e.targetLanguage, model: e.model, translation: e.translation, detected: e.detectedSourceLanguage,
      }))),
    ],
  );
}
