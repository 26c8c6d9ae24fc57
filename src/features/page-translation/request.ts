/**
 * Rules of a page-translation batch (POST /api/immersive-translate): its limits, the canonical
 * hash that makes `request_id` an idempotency key, and how item text is prepared for the
 * provider and the cache. Pure; no I/O.
 */
import { hash } from 'node:crypto';
import { PAGE_TRANSLATION_LIMITS } from '../../domain/limits.ts';
import { cleanCaptureText, countCodePoints } from '../../domain/normalise.ts';
import type { FieldError } from '../../domain/problems.ts';

export interface BatchItem {
  id: string;
  text: string;
}

export interface PageTranslationRequest {
  request_id: string;
  /** Canonical tags (see canonicalLanguage); `auto` only as the source. */
  target_language: string;
  source_language: string;
  items: BatchItem[];
}

/** The per-item limits zod cannot express alone: unique ids and the summed text length. */
export function batchLimitErrors(items: readonly BatchItem[]): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Map<string, number>();
  items.forEach((item, index) => {
    const first = seen.get(item.id);
    if (first !== undefined) errors.push({ path: `items.${index}.id`, message: `duplicate id; items.${first}.id has the same value` });
    else seen.set(item.id, index);
  });
  const total = items.reduce((sum, item) => sum + countCodePoints(item.text), 0);
  if (total > PAGE_TRANSLATION_LIMITS.maxTotalCodePoints) {
    errors.push({
      path: 'items',
      message: `item text totals ${total} characters (code points); the limit is ${PAGE_TRANSLATION_LIMITS.maxTotalCodePoints} per request`,
    });
  }
  return errors;
}

/**
 * What "the same body" means for a repeated request_id: languages (already canonical) and the
 * items with their exact ids and texts, in order. Unknown fields and JSON formatting do not
 * count. Versioned so that a change of the canonical form cannot alias old hashes.
 */
export function requestHash(request: PageTranslationRequest): string {
  const canonical = JSON.stringify([
    'page-translation-v1',
    request.target_language,
    request.source_language,
    request.items.map((item) => [item.id, item.text]),
  ]);
  return hash('sha256', canonical);
}

/**
 * Splits an item's text into what is translated and the surrounding whitespace that page
 * clients need back to re-insert the text between inline elements. `core` is the normalised
 * text (NFC, whitespace collapsed, trimmed): the cache key's text and what the provider sees.
 */
export function prepareItemText(text: string): { leading: string; core: string; trailing: string } {
  const leading = /^[\s\u0085]*/u.exec(text)![0];
  const core = cleanCaptureText(text);
  if (core === '') return { leading: text, core, trailing: '' };
  // Walked back from the end: `/[\s]*$/` tries a match at every position of the text.
  let end = text.length;
  while (end > 0 && SPACE.test(text[end - 1]!)) end--;
  return { leading, core, trailing: text.slice(end) };
}

const SPACE = /[\s\u0085]/;

/** The translation cache's key: every input that changes a translation, nothing else (no user). */
export function translationCacheKey(parts: { promptVersion: string; model: string; sourceLanguage: string; targetLanguage: string; text: string }): string {
  const canonical = JSON.stringify([parts.promptVersion, parts.model, parts.sourceLanguage, parts.targetLanguage, parts.text]);
  return hash('sha256', canonical);
}

/**
 * Groups texts into provider calls of at most `budget` code points each (a single longer text
 * gets a call of its own). One call for any ordinary page; a very large batch is split so each
 * answer stays well inside the model's output limit.
 */
export function chunkByBudget<T extends { text: string }>(entries: readonly T[], budget: number): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let size = 0;
  for (const entry of entries) {
    const length = countCodePoints(entry.text);
    if (current.length > 0 && size + length > budget) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(entry);
    size += length;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
