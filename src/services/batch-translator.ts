import { Decimal } from 'decimal.js';
import { z } from 'zod';
import { languageName } from '../domain/languages.ts';
import { AppError } from '../domain/problems.ts';
import { checkBatchOutput, type RequestedEntry, type TranslatedEntry } from '../domain/translation-batch.ts';
import { chunkByBudget } from '../domain/translation-request.ts';
import type { ModelClient } from '../model/model-client.ts';

/**
 * The `translate_batch` provider call: all uncached texts of a page in one validated round trip
 * (several, in parallel, only for a very large batch).
 */

/** Code points per provider call; a full 12,000-point page takes two calls, an ordinary one a single call. */
export const PROVIDER_CALL_BUDGET = 8_000;

const batchOutputSchema = z.object({
  items: z.array(z.object({ id: z.string(), text: z.string(), detected_source_language: z.string().nullable() })),
});

const SYSTEM_PROMPT = [
  'You translate the text of web page elements.',
  'Translate every item of `items` into `target_language`, from `source_language` (when it is "auto", detect it per item).',
  'Answer with every item exactly once, under its own `id`, in `items`.',
  'Keep inline placeholders exactly as written and keep their pairs around the words they belong to: tags such as <b0>…</b0>, <a1>…</a1>, <x2/> and braces such as {0}. Never add, drop, rename or translate a placeholder.',
  'Translate only; do not explain, add notes or quotation marks.',
  'Set `detected_source_language` to the BCP 47 tag of the item\'s source language (e.g. "en", "de", "zh-Hans"), or null when unknown.',
].join(' ');

const ExactDecimal = Decimal.clone({ precision: 1000 });

export interface BatchTranslation {
  entries: Map<string, TranslatedEntry>;
  /** Provider cost of every call, summed exactly. */
  costUsd: string;
  model: string;
  /** Entries of calls that succeeded, even when another call of the batch failed (worth caching). */
  failure: AppError | null;
}

export async function translateEntries(
  model: ModelClient,
  request: { sourceLanguage: string; targetLanguage: string; entries: RequestedEntry[] },
): Promise<BatchTranslation> {
  const chunks = chunkByBudget(request.entries.map((e) => ({ ...e })), PROVIDER_CALL_BUDGET);
  const settled = await Promise.allSettled(chunks.map((chunk) => translateChunk(model, request, chunk)));
  const entries = new Map<string, TranslatedEntry>();
  let cost = new ExactDecimal(0);
  let modelName = '';
  let failure: AppError | null = null;
  for (const outcome of settled) {
    if (outcome.status === 'rejected') {
      failure ??= outcome.reason instanceof AppError ? outcome.reason : new AppError('service_unavailable', 'The translation failed.');
      continue;
    }
    for (const [key, entry] of outcome.value.entries) entries.set(key, entry);
    cost = cost.plus(outcome.value.costUsd);
    modelName = outcome.value.model;
  }
  return { entries, costUsd: cost.toFixed(), model: modelName, failure };
}

async function translateChunk(
  model: ModelClient,
  request: { sourceLanguage: string; targetLanguage: string },
  chunk: RequestedEntry[],
) {
  const result = await model.complete({
    task: 'translate_batch',
    schema: batchOutputSchema,
    system: `${SYSTEM_PROMPT} Target language: ${languageName(request.targetLanguage)}.`,
    input: {
      source_language: request.sourceLanguage,
      target_language: request.targetLanguage,
      items: chunk.map((e) => ({ id: e.key, text: e.text })),
    },
  });
  const checked = checkBatchOutput(chunk, result.data.items);
  if (!checked.ok) throw new AppError('provider_output_invalid', `The model answer for translate_batch was rejected: ${checked.reason}`);
  return { entries: checked.entries, costUsd: result.costUsd, model: result.model };
}
