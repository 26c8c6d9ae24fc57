/**
 * Validation of a provider's answer to one `translate_batch` call: every requested entry comes
 * back exactly once, non-empty, with its placeholders intact and no markup its source lacked. Reasons name ids and placeholders
 * only, never text, because they end up in logs and problem details.
 */
import { canonicalLanguage } from '../../domain/languages.ts';
import { checkMarkup } from './markup.ts';
import { checkPlaceholders } from './placeholders.ts';

export interface RequestedEntry {
  /** The id the provider sees (an index of ours, not the client's id). */
  key: string;
  text: string;
}

export interface ProviderItem {
  id: string;
  text: string;
  detected_source_language: string | null;
}

export interface TranslatedEntry {
  text: string;
  detectedSourceLanguage: string;
}

export type BatchCheck = { ok: true; entries: Map<string, TranslatedEntry> } | { ok: false; reason: string };

const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/;

/**
 * A detected language as we report it: a supported tag in its canonical spelling, any other
 * well-formed BCP 47 tag lower-cased, `und` (undetermined) for anything else.
 */
export function detectedLanguage(tag: string | null | undefined): string {
  const trimmed = tag?.trim() ?? '';
  return canonicalLanguage(trimmed) ?? (LANGUAGE_TAG.test(trimmed) ? trimmed.toLowerCase() : 'und');
}

export function checkBatchOutput(requested: readonly RequestedEntry[], output: readonly ProviderItem[]): BatchCheck {
  const wanted = new Map(requested.map((entry) => [entry.key, entry]));
  const entries = new Map<string, TranslatedEntry>();
  // One item asked, one answered: its id places nothing, so a weaker model's garbled id (a small local model wrote ":")
  // does not fail an answer that is otherwise sound.
  const placed = requested.length === 1 && output.length === 1 ? [{ ...output[0]!, id: requested[0]!.key }] : output;
  for (const item of placed) {
    const source = wanted.get(item.id);
    if (!source) return { ok: false, reason: `unknown item id ${JSON.stringify(item.id.slice(0, 20))}` };
    if (entries.has(item.id)) return { ok: false, reason: `item ${item.id} answered twice` };
    if (item.text.trim() === '') return { ok: false, reason: `item ${item.id} has an empty translation` };
    const placeholders = checkPlaceholders(source.text, item.text);
    if (!placeholders.ok) return { ok: false, reason: `item ${item.id}: ${placeholders.reason}` };
    const markup = checkMarkup(source.text, item.text);
    if (!markup.ok) return { ok: false, reason: `item ${item.id} ${markup.reason}` };
    entries.set(item.id, { text: item.text, detectedSourceLanguage: detectedLanguage(item.detected_source_language) });
  }
  const missing = requested.find((entry) => !entries.has(entry.key));
  if (missing) return { ok: false, reason: `item ${missing.key} missing from the answer` };
  return { ok: true, entries };
}
