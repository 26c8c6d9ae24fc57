import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { TOKEN_PREFIX } from '../../src/domain/limits.ts';
import type { Stack } from './stack.ts';

/** Raw SQL against the stack's database, for checks the API cannot show (hashes, ledger sums). */
export async function sql<T = Record<string, any>>(stack: Stack, query: string, params: unknown[] = []): Promise<T[]> {
  return stack.orm.em.fork().execute<T[]>(query, params);
}

/** The same token with one character of its random part changed: the checksum no longer matches. */
export function withOneCharChanged(token: string): string {
  const i = TOKEN_PREFIX.length + 10;
  const replacement = token[i] === 'A' ? 'B' : 'A';
  return token.slice(0, i) + replacement + token.slice(i + 1);
}

export interface Operation {
  method: string;
  path: string;
  template: string;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);

/** Every operation of the OpenAPI document that needs a principal (public ones declare `security: []`). */
export function authenticatedOperations(doc: any): Operation[] {
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!HTTP_METHODS.has(method)) continue;
      const security = op.security ?? doc.security ?? [];
      if (security.length === 0) continue;
      operations.push({ method: method.toUpperCase(), template, path: template.replace(/\{[^}]+\}/g, () => randomUUID()) });
    }
  }
  return operations;
}

export const hasOperation = (doc: any, method: string, path: string) => Boolean(doc.paths?.[path]?.[method.toLowerCase()]);

/** Whole-suite invariant: a user's ledger entries always add up to the wallet balance. */
export async function expectLedgerMatchesBalance(stack: Stack, userId: string) {
  const [row] = await sql<{ sum: string; balance: number }>(
    stack,
    `SELECT (SELECT COALESCE(SUM(amount), 0) FROM ledger_entries WHERE user_id = ?)::text AS sum,
            (SELECT balance FROM wallets WHERE user_id = ?) AS balance`,
    [userId, userId],
  );
  expect(Number(row!.sum)).toBe(row!.balance);
  return row!.balance;
}

/**
 * What each workflow is waiting on (its pending activities: attempt, last failure, next attempt),
 * for the message of a wait that timed out: a flake under load then names its cause.
 */
export async function pendingWork(stack: Stack, workflowIds: string[]): Promise<string> {
  const lines = await Promise.all(
    workflowIds.map(async (id) => {
      try {
        const { status, raw } = await stack.temporal.workflow.getHandle(id).describe();
        const activities = (raw.pendingActivities ?? []).map((a) => {
          const failure = a.lastFailure;
          const kind = failure?.applicationFailureInfo?.type ?? (failure?.timeoutFailureInfo ? `timeout ${failure.timeoutFailureInfo.timeoutType}` : undefined);
          const next = a.nextAttemptScheduleTime?.seconds ? new Date(Number(a.nextAttemptScheduleTime.seconds) * 1000).toISOString() : '-';
          return `${a.activityType?.name} attempt ${a.attempt} state ${a.state} last failure ${kind ?? '-'} (${failure?.message ?? ''}) next ${next}`;
        });
        return `${id}: ${status.name}; ${activities.join('; ') || 'no pending activity'}`;
      } catch (error) {
        return `${id}: not described (${(error as Error).message})`;
      }
    }),
  );
  return `${lines.join('\n')}\n(now ${new Date().toISOString()})`;
}
