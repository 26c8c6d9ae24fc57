/**
 * Translating any number of texts through /api/immersive-translate, for `lcs translate` and the
 * `translate_texts` tool: texts are split into requests the API accepts (PAGE_TRANSLATION_LIMITS),
 * each with a request_id derived from its content, so a rerun is answered from the service's
 * stored response and charged nothing.
 */
import { createHash } from 'node:crypto';
import { PAGE_TRANSLATION_LIMITS } from '../../src/domain/limits.ts';
import { chunkByBudget } from '../../src/features/page-translation/request.ts';
import type { Api } from './service.ts';

export interface Translation {
  text: string;
  detectedSourceLanguage: string;
}

export function translationRequests(texts: readonly string[], targetLanguage: string, sourceLanguage: string) {
  const entries = texts.map((text, index) => ({ id: String(index), text }));
  const batches = chunkByBudget(entries, PAGE_TRANSLATION_LIMITS.maxTotalCodePoints).flatMap((chunk) =>
    Array.from({ length: Math.ceil(chunk.length / PAGE_TRANSLATION_LIMITS.maxItems) }, (_, i) =>
      chunk.slice(i * PAGE_TRANSLATION_LIMITS.maxItems, (i + 1) * PAGE_TRANSLATION_LIMITS.maxItems),
    ),
  );
  return batches.map((items) => ({
    request_id: `lcs-${createHash('sha256')
      .update(JSON.stringify([targetLanguage, sourceLanguage, items]))
      .digest('hex')
      .slice(0, 40)}`,
    target_language: targetLanguage,
    source_language: sourceLanguage,
    items,
  }));
}

/** The translations in the order of `texts`, and what they cost (0 for a rerun). */
export async function translateTexts(api: Api, texts: readonly string[], targetLanguage: string, sourceLanguage = 'auto') {
  const translations = new Array<Translation>(texts.length);
  let creditsCharged = 0;
  for (const body of translationRequests(texts, targetLanguage, sourceLanguage)) {
    // The request types name the supported language tags; the service checks the values.
    let replayed = false;
    const answer = await api.call(async (c) => {
      const answered = await c.POST('/api/immersive-translate', { body: body as never });
      replayed = answered.response.headers.get('idempotent-replayed') === 'true';
      return answered;
    });
    // A replayed answer repeats the first one's charge, which is not charged again.
    if (!replayed) creditsCharged += answer.credits_charged;
    for (const item of answer.items) translations[Number(item.id)] = { text: item.text, detectedSourceLanguage: item.detected_source_language };
  }
  return { translations, creditsCharged };
}
