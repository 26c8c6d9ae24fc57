import { expect, vi } from 'vitest';
import type { Stack } from '../../support/stack.ts';

export const translationCalls = (stack: Stack, task = 'translate_sentence') =>
  stack.fake.requests.filter((r) => r.body?.response_format?.json_schema?.name === task);

export async function emptyWallet(stack: Stack, userId: string): Promise<void> {
  await stack.orm.em.fork().execute(`UPDATE wallets SET balance = 0 WHERE user_id = ?`, [userId]);
}

export async function ledgerKinds(stack: Stack, userId: string, kind: string) {
  return stack.orm.em
    .fork()
    .execute<{ idempotency_key: string; amount: number }[]>(`SELECT idempotency_key, amount FROM ledger_entries WHERE user_id = ? AND kind = ? ORDER BY id`, [
      userId,
      kind,
    ]);
}

export async function sentenceRow(stack: Stack, id: string) {
  const [row] = await stack.orm.em
    .fork()
    .execute<{ status: string; attempt: number; error_code: string | null; credits_charged: number | null }[]>(
      `SELECT status, attempt, error_code, credits_charged FROM sentences WHERE id = ?`,
      [id],
    );
  return row;
}

/** Polls the sentence's row until it leaves `pending` (the row also shows attempt and charge). */
export async function waitForSettled(stack: Stack, id: string, timeout = 30_000) {
  return vi.waitFor(
    async () => {
      const row = await sentenceRow(stack, id);
      expect(row?.status).not.toBe('pending');
      return row!;
    },
    { timeout, interval: 100 },
  );
}

export const asyncHeaders = { 'x-service-async': '1' };
