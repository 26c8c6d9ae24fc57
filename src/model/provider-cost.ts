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
