/**
 * How page text is cut into /api/immersive-translate batches: each within PAGE_TRANSLATION_LIMITS
 * (items, and source characters counted in code points), with a request_id derived from the
 * batch's content, so that a retry after a network error (or the same page read again) sends the
 * very same request, which the service answers from what it stored without charging again.
 */
import type { paths } from '../../../clients/rest/client.ts';
import { PAGE_TRANSLATION_LIMITS } from '../../../src/domain/limits.ts';
import { countCodePoints } from '../../../src/domain/normalise.ts';

const { maxItems: MAX_ITEMS, maxTotalCodePoints: MAX_CHARS } = PAGE_TRANSLATION_LIMITS;

/**
 * The longest prefix of `queue` that fits one batch. An item too long for any batch comes out
 * alone, as `tooLong`, for the caller to drop.
 */
export function takeBatch(queue: readonly string[]): { batch: string[]; tooLong: string | null } {
  const batch: string[] = [];
  let chars = 0;
  for (const text of queue) {
    const length = countCodePoints(text);
    if (batch.length === 0 && length > MAX_CHARS) return { batch: [], tooLong: text };
    if (batch.length === MAX_ITEMS || chars + length > MAX_CHARS) break;
    batch.push(text);
    chars += length;
  }
  return { batch, tooLong: null };
}

/** Whether the queue holds at least a full batch (so waiting for more would not make it bigger). */
export function holdsFullBatch(queue: readonly string[]): boolean {
  return queue.length >= MAX_ITEMS || takeBatch(queue).batch.length < queue.length;
}

export type BatchRequest = paths['/api/immersive-translate']['post']['requestBody']['content']['application/json'];
export interface BatchLanguages {
  source: BatchRequest['source_language'];
  target: BatchRequest['target_language'];
}

/** The request for a batch: item ids are positions, and the request_id a hash of everything sent. */
export async function batchRequest(texts: readonly string[], languages: BatchLanguages): Promise<BatchRequest> {
  const items = texts.map((text, index) => ({ id: String(index), text }));
  const content = JSON.stringify([languages.source, languages.target, items.map((item) => item.text)]);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(content)));
  const hex = Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return { request_id: `lcs-page-${hex}`, target_language: languages.target, source_language: languages.source, items };
}
