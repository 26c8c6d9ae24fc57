import { costCeilingUsd, type ModelPrice } from '../domain/model-budget.ts';
import type { ModelClientLogger } from './model-client.ts';
import { isRecord, toPlainDecimal } from './exact-json.ts';

/**
 * The call's cost in USD as the provider accounted it (`usage.cost`), as exact decimal text:
 * `parseJsonExact` already kept the number as written, never a rounded double. No cost reported
 * is 0 (a cache hit); an unreadable one too, with a warning.
 */
export function reportedCostUsd(usage: unknown, task: string, log: ModelClientLogger | undefined): string {
  const cost = isRecord(usage) ? usage.cost : undefined;
  if (cost === undefined || cost === null) return '0';
  try {
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a cost that is not decimal text fails toPlainDecimal and is reported below
    return toPlainDecimal(String(cost));
  } catch {
    log?.warn({ task }, 'model response carried an unreadable cost; recorded as 0');
    return '0';
  }
}

/**
 * The cost of an answer from the deployment's own OpenAI-compatible endpoint, which reports
 * tokens but mostly no cost: its `usage.cost` when it gives one, else the tokens it reports at the
 * configured prices (0 when they are 0). A count it does not report, or one beyond what the call
 * could hold, is taken at its bound (the request's bytes, the answer's bytes): never more than the
 * cost ceiling credits were held against.
 */
export function tokenPricedCostUsd(
  usage: unknown,
  price: ModelPrice,
  bounds: { promptTokens: number; completionTokens: number },
  task: string,
  log: ModelClientLogger | undefined,
): string {
  if (isRecord(usage) && usage.cost !== undefined && usage.cost !== null) return reportedCostUsd(usage, task, log);
  const count = (value: unknown, bound: number) => {
    const n = typeof value === 'string' || typeof value === 'number' ? Number(value) : NaN;
    return Number.isSafeInteger(n) && n >= 0 ? Math.min(n, bound) : bound;
  };
  const tokens = {
    input: count(isRecord(usage) ? usage.prompt_tokens : undefined, bounds.promptTokens),
    output: count(isRecord(usage) ? usage.completion_tokens : undefined, bounds.completionTokens),
  };
  return costCeilingUsd(tokens, price);
}
