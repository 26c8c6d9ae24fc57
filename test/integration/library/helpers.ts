import { expect, vi } from 'vitest';
import type { Stack } from '../../support/stack.ts';
import type { TestUser } from '../../support/users.ts';
import { api, expectStatus } from '../../support/api.ts';

/** Polls the card until its enrichmentStatus is `status` (generous: CI has 2 cores). */
export async function waitForStatus(stack: Stack, user: TestUser, cardId: string, status: 'ready' | 'failed', timeout = 45_000) {
  return vi.waitFor(
    async () => {
      const res = await api(stack, { token: user.token }).GET('/api/library/{cardId}', { params: { path: { cardId } } });
      expectStatus(res, 200);
      expect(res.body.card.enrichmentStatus).toBe(status);
      return res.body.card;
    },
    { timeout, interval: 200 },
  );
}

export async function capture(stack: Stack, user: TestUser, text: string, expected: 200 | 202 = 202) {
  const res = await api(stack, { token: user.token }).POST('/api/library', { body: { text } });
  expectStatus(res, expected);
  return res.body.card;
}

/** capture_preparation ledger entries of a user (what was charged, by key). */
export async function preparationCharges(stack: Stack, userId: string) {
  return stack.orm.em
    .fork()
    .execute<{ idempotency_key: string; amount: number; ref: string }[]>(
      `SELECT idempotency_key, amount, ref FROM ledger_entries WHERE user_id = ? AND kind = 'capture_preparation' ORDER BY id`,
      [userId],
    );
}

/** Model calls the fake received for capture preparation. */
export const preparationCalls = (stack: Stack) => stack.fake.requests.filter((r) => r.body?.response_format?.json_schema?.name === 'capture_preparation');

/** Sets the user's balance directly (e.g. 0 to test running out of credits). */
export async function setBalance(stack: Stack, userId: string, balance: number) {
  await stack.orm.em.fork().execute(`UPDATE wallets SET balance = ? WHERE user_id = ?`, [balance, userId]);
}
