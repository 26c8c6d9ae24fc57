import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { charge } from '../../../src/features/credits/wallet.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser } from '../../support/users.ts';
import { expectLedgerMatchesBalance, sql } from '../../support/helpers.ts';
import { api, bodyOf } from '../../support/api.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ worker: false });
});
afterAll(async () => {
  await stack?.close();
});

// Each call gets its own EntityManager, as concurrent requests and activities do.
const chargeOnce = (userId: string, idempotencyKey: string, providerCostUsd: string) =>
  charge(stack.orm.em.fork(), { userId, idempotencyKey, providerCostUsd, kind: 'capture_preparation', reason: 'race' });

describe('concurrent charges', () => {
  it('50 at once with one key → exactly one ledger entry, the balance reduced once', async () => {
    const user = await newUser(stack);
    const results = await Promise.all(Array.from({ length: 50 }, () => chargeOnce(user.userId, 'same-key', '0.0016')));
    expect(results.filter((r) => r.charged)).toHaveLength(1);
    expect(new Set(results.map((r) => r.entryId)).size).toBe(1);
    for (const r of results) expect(r).toMatchObject({ credits: 160, debited: 160, shortfall: 0 });
    const entries = await sql(stack, `SELECT amount FROM ledger_entries WHERE user_id = ? AND idempotency_key = 'same-key'`, [user.userId]);
    expect(entries).toEqual([{ amount: -160 }]);
    expect(await expectLedgerMatchesBalance(stack, user.userId)).toBe(340);
    expect(bodyOf(await api(stack, { token: user.token }).GET('/api/credits'), 200).balance).toBe(340);
  });

  it('worth more than the balance → never below zero, ends at 0, shortfalls recorded, ledger sums to the balance', async () => {
    const user = await newUser(stack);
    // 30 × 40 credits = 1,200 against 500.
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => chargeOnce(user.userId, `key-${i}`, '0.0004')));
    expect(results.every((r) => r.charged && r.credits === 40)).toBe(true);
    expect(results.reduce((sum, r) => sum + r.debited, 0)).toBe(500);
    expect(results.reduce((sum, r) => sum + r.shortfall, 0)).toBe(700);
    expect(results.filter((r) => r.debited === 40)).toHaveLength(12);
    expect(results.filter((r) => r.debited === 20 && r.shortfall === 20)).toHaveLength(1);
    expect(results.filter((r) => r.debited === 0 && r.shortfall === 40)).toHaveLength(17);

    const entries = await sql<{ amount: number; balance_after: number; shortfall: number }>(
      stack,
      `SELECT amount, balance_after, shortfall FROM ledger_entries WHERE user_id = ? AND kind = 'capture_preparation' ORDER BY id`,
      [user.userId],
    );
    expect(entries).toHaveLength(30);
    // Serialised by the wallet lock: each entry's balance follows from the previous one.
    let balance = 500;
    for (const e of entries) {
      balance += e.amount;
      expect(e.balance_after).toBe(balance);
      expect(e.balance_after).toBeGreaterThanOrEqual(0);
      expect(-e.amount + e.shortfall).toBe(40);
    }
    expect(await expectLedgerMatchesBalance(stack, user.userId)).toBe(0);
    expect(bodyOf(await api(stack, { token: user.token }).GET('/api/credits'), 200).balance).toBe(0);
  });

  it('retried keys racing with new ones are each counted once', async () => {
    const user = await newUser(stack);
    const keys = Array.from({ length: 60 }, (_, i) => `mixed-${i % 6}`);
    const results = await Promise.all(keys.map((key) => chargeOnce(user.userId, key, '0.0005')));
    expect(results.filter((r) => r.charged)).toHaveLength(6);
    expect(await expectLedgerMatchesBalance(stack, user.userId)).toBe(500 - 6 * 50);
  });

  it('of different users do not block or affect each other', async () => {
    const [a, b] = await Promise.all([newUser(stack), newUser(stack)]);
    await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => chargeOnce(a.userId, `a-${i}`, '0.0001')),
      ...Array.from({ length: 10 }, (_, i) => chargeOnce(b.userId, `b-${i}`, '0.0002')),
    ]);
    expect(await expectLedgerMatchesBalance(stack, a.userId)).toBe(400);
    expect(await expectLedgerMatchesBalance(stack, b.userId)).toBe(300);
  });
});
