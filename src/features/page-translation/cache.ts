import type { Em } from '../../db/orm.ts';
import { sql, allRows, preparedStatement, run } from '../../db/sql.ts';
import { answerServes } from './sharing.ts';
import { counter } from '../../platform/metrics.ts';

/**
 * The page-translation cache. Keys come from `translationCacheKey` (prompt version, model,
 * language pair, normalised text); the source text itself is never stored. Each answer remembers
 * the provider call it came from (`translation_contexts`: who sent it and the keys of all its
 * texts), and is served only where sharing.ts allows. An answer is written only after
 * the provider's answer passed validation, and never with an empty translation (the table
 * refuses one too).
 */

/** Bump when the prompt or the output rules change: old entries then stop matching. */
export const TRANSLATE_BATCH_PROMPT_VERSION = 'translate-batch-v2';

export interface CachedTranslation {
  translation: string;
  detectedSourceLanguage: string;
}

export interface CacheLookup {
  /** An answer that may serve this request, per key (one from a call of its own when there is one). */
  found: Map<string, CachedTranslation>;
  /** Keys with cached answers none of which may serve this request: texts that recur elsewhere. */
  recurring: Set<string>;
}

interface AnswerRow {
  cache_key: string;
  translation: string;
  detected_source_language: string;
  alone: boolean;
  own_call: boolean;
  call_within_request: boolean;
}

const cacheHits = counter('lcs_translation_cache_hits_total', 'Page-translation texts answered from the cache');
const cacheMisses = counter('lcs_translation_cache_misses_total', 'Page-translation texts the cache had no answer for that may serve the request');

/**
 * The cached answers for a request's keys (a JSON array), with what decides whether each may serve
 * it. Prepared (src/db/sql.ts): every page translation runs it. Whether a call's texts all belong
 * to this request is asked once per call, not once per answer: `<@` compares every key with every
 * key, and one call answers up to 40 texts.
 */
const cachedAnswers = preparedStatement(
  'translation_cache_lookup',
  (keysJson: string, userId: string) =>
    sql<AnswerRow>`WITH request AS (SELECT ARRAY(SELECT jsonb_array_elements_text(${keysJson}::jsonb)) AS cache_keys),
     answers AS MATERIALIZED (
       SELECT t.cache_key, t.translation, t.detected_source_language, t.context_id
       FROM request CROSS JOIN translation_cache t WHERE t.cache_key = ANY (request.cache_keys)
     ),
     calls AS MATERIALIZED (
       SELECT c.id, c.requested_by = ${userId} AS own_call, c.cache_keys <@ request.cache_keys AS call_within_request
       FROM request CROSS JOIN translation_contexts c WHERE c.id IN (SELECT context_id FROM answers)
     )
     SELECT a.cache_key, a.translation, a.detected_source_language, a.context_id IS NULL AS alone,
            coalesce(calls.own_call, false) AS own_call, coalesce(calls.call_within_request, false) AS call_within_request
     FROM answers a LEFT JOIN calls ON calls.id = a.context_id
     ORDER BY a.context_id NULLS FIRST`,
);

/** Every cached answer for `keys`, judged against the request (`keys` are all of its texts) and its user. */
export async function lookupTranslations(em: Em, userId: string, keys: readonly string[]): Promise<CacheLookup> {
  const lookup: CacheLookup = { found: new Map(), recurring: new Set() };
  if (keys.length === 0) return lookup;
  const rows = await allRows(em, cachedAnswers(JSON.stringify(keys), userId));
  for (const row of rows) {
    if (lookup.found.has(row.cache_key)) continue;
    const facts = { alone: row.alone, ownCall: row.own_call, callWithinRequest: row.call_within_request };
    if (answerServes(facts)) {
      lookup.found.set(row.cache_key, { translation: row.translation, detectedSourceLanguage: row.detected_source_language });
      lookup.recurring.delete(row.cache_key);
    } else {
      lookup.recurring.add(row.cache_key);
    }
  }
  cacheHits.inc(lookup.found.size);
  cacheMisses.inc(keys.length - lookup.found.size);
  return lookup;
}

export interface CallAnswers {
  /** Cache keys of every text of the call. */
  keys: string[];
  answers: { key: string; translation: string; detectedSourceLanguage: string }[];
}

/**
 * Stores the answers of the calls that succeeded, with where they came from: one statement for
 * the calls that carried one text (first writer wins), one per call that carried several.
 */
export async function storeTranslations(
  em: Em,
  userId: string,
  calls: readonly CallAnswers[],
  meta: { sourceLanguage: string; targetLanguage: string; model: string },
): Promise<void> {
  const columns = sql.join([meta.sourceLanguage, meta.targetLanguage, meta.model, TRANSLATE_BATCH_PROMPT_VERSION]);
  const rows = (answers: CallAnswers['answers']) => JSON.stringify(answers.filter((a) => a.translation.trim() !== ''));
  const alone = calls.filter((call) => call.keys.length === 1);
  if (alone.length > 0) {
    await run(
      em,
      sql`INSERT INTO translation_cache (cache_key, source_language, target_language, model, prompt_version, translation, detected_source_language)
       SELECT a.key, ${columns}, a.translation, a."detectedSourceLanguage"
       FROM jsonb_to_recordset(${rows(alone.flatMap((call) => call.answers))}::jsonb) AS a(key text, translation text, "detectedSourceLanguage" text)
       ON CONFLICT (cache_key, context_id) DO NOTHING`,
    );
  }
  for (const call of calls.filter((c) => c.keys.length > 1)) {
    await run(
      em,
      sql`WITH context AS (
         INSERT INTO translation_contexts (requested_by, cache_keys)
         VALUES (${userId}, ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(call.keys)}::jsonb))) RETURNING id
       )
       INSERT INTO translation_cache (cache_key, source_language, target_language, model, prompt_version, translation, detected_source_language, context_id)
       SELECT a.key, ${columns}, a.translation, a."detectedSourceLanguage", context.id
       FROM jsonb_to_recordset(${rows(call.answers)}::jsonb) AS a(key text, translation text, "detectedSourceLanguage" text) CROSS JOIN context`,
    );
  }
}
