import { ExactDecimal } from '../../domain/credits.ts';
import { AppError } from '../../domain/problems.ts';
import { checkBatchOutput, type RequestedEntry, type TranslatedEntry } from './batch-check.ts';
import type { ModelClient, StructuredRequest } from '../../model/model-client.ts';
import { counter } from '../../platform/metrics.ts';
import { batchRequest, type BatchLanguages, type BatchOutput } from './prompts.ts';

/**
 * The `translate_batch` provider calls: groups of texts, each group one validated round trip,
 * a few in flight at once. How texts are grouped is the caller's decision (sharing.ts).
 */

/** Code points per provider call; a full 12,000-point page takes two calls, an ordinary one a single call. */
export const PROVIDER_CALL_BUDGET = 8_000;

/** Calls of one page in flight at once: a page of 40 texts asked for alone stays 5 rounds, not 40 sockets. */
const CALLS_IN_FLIGHT = 8;

interface TranslatedCall<E extends RequestedEntry = RequestedEntry> {
  /** The call's entries, in the order they were sent. */
  requested: E[];
  entries: Map<string, TranslatedEntry>;
}

export interface BatchTranslation<E extends RequestedEntry = RequestedEntry> {
  /** The calls that succeeded, even when another call failed (their answers are worth keeping). */
  calls: TranslatedCall<E>[];
  /** Provider cost of the calls that succeeded, summed exactly. */
  costUsd: string;
  failure: AppError | null;
}

/** One planned provider call: its texts, and the request that carries them. */
export interface BatchCall<E extends RequestedEntry = RequestedEntry> {
  chunk: E[];
  request: StructuredRequest<BatchOutput>;
}

/** The provider requests of planned groups of texts: what translateCalls sends, and what its credits are held against. */
export function batchCalls<E extends RequestedEntry>(languages: BatchLanguages, groups: E[][]): BatchCall<E>[] {
  return groups.map((chunk) => ({
    chunk,
    request: batchRequest(
      languages,
      chunk.map((e) => ({ id: e.key, text: e.text })),
    ),
  }));
}

const callsMetric = counter('lcs_translation_provider_calls_total', 'translate_batch provider calls, by texts per call and outcome', ['texts', 'outcome']);

export async function translateCalls<E extends RequestedEntry>(model: ModelClient, calls: BatchCall<E>[]): Promise<BatchTranslation<E>> {
  const settled = await settleInRounds(
    calls.map((call) => () => translateChunk(model, call)),
    CALLS_IN_FLIGHT,
  );
  const done: TranslatedCall<E>[] = [];
  let cost = new ExactDecimal(0);
  let failure: AppError | null = null;
  settled.forEach((outcome, index) => {
    const requested = calls[index]!.chunk;
    callsMetric.inc({ texts: requested.length === 1 ? 'one' : 'several', outcome: outcome.status === 'fulfilled' ? 'ok' : 'failed' });
    if (outcome.status === 'rejected') {
      failure ??= outcome.reason instanceof AppError ? outcome.reason : new AppError('service_unavailable', 'The translation failed.');
      return;
    }
    done.push({ requested, entries: outcome.value.entries });
    cost = cost.plus(outcome.value.costUsd);
  });
  return { calls: done, costUsd: cost.toFixed(), failure };
}

/** Runs every task, at most `width` at a time, and settles them all (none is abandoned mid-call). */
async function settleInRounds<T>(tasks: (() => Promise<T>)[], width: number): Promise<PromiseSettledResult<T>[]> {
  const results: PromiseSettledResult<T>[] = [];
  for (let at = 0; at < tasks.length; at += width) {
    results.push(...(await Promise.allSettled(tasks.slice(at, at + width).map((task) => task()))));
  }
  return results;
}

async function translateChunk(model: ModelClient, { chunk, request }: BatchCall) {
  const result = await model.complete(request);
  // The request's schema made the same check (prompts.ts): an answer that failed it was repaired once or refused.
  const checked = checkBatchOutput(chunk, result.data.items);
  if (!checked.ok) throw new AppError('provider_output_invalid', `The model answer for translate_batch was rejected: ${checked.reason}`);
  return { entries: checked.entries, costUsd: result.costUsd };
}
