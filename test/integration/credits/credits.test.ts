import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChargeKind } from '../../../src/domain/credits.ts';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX } from '../../../src/domain/limits.ts';
import { charge, setPlan } from '../../../src/features/credits/wallet.ts';
import type { operations } from '../../../clients/rest/schema.d.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser } from '../../support/users.ts';
import { expectLedgerMatchesBalance, sql } from '../../support/helpers.ts';
import { api, bodyOf, expectProblem, expectStatus } from '../../support/api.ts';

type LedgerEntry = operations['credits.ledger']['responses'][200]['content']['application/json']['items'][number];

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ worker: false });
});
afterAll(async () => {
  await stack?.close();
});

// Longer than a double holds: as a JS number it would be 0.0005 exactly.
const LONG = '0.00050000000000000000001';
const COSTS = ['0', '0.0004', '0.0005', '0.0016', '0.0123456', LONG] as const;

/** Expected credits per kind, worked out by hand from the contract's formulas. */
const EXPECTED: Record<ChargeKind, number[]> = {
  capture_preparation: [0, 40, 50, 160, 1235, 51], // ceil(cost × 100 000)
  work: [0, 40, 50, 160, 1235, 51],
  audio: [0, 2, 3, 8, 62, 3], // ceil(cost × 5 000)
  page_translation: [0, 1, 3, 6, 36, 3], // round(cost, 3, half up) × 3 000, at least 1 when cost > 0
  sentence_translation: [0, 1, 3, 6, 36, 3],
};

describe('charge() through the real wallet', () => {
  it.each(Object.keys(EXPECTED) as ChargeKind[])('%s: ledger amount, balance after, and exactly once per key', async (kind) => {
    const user = await newUser(stack);
    await setPlan(stack.context(), user.userId, 'paid');
    let balance = 5000;
    for (const [i, cost] of COSTS.entries()) {
      const credits = EXPECTED[kind][i]!;
      const key = `test/${kind}/${i}`;
      const first = await charge(stack.orm.em.fork(), {
        userId: user.userId,
        idempotencyKey: key,
        providerCostUsd: cost,
        kind,
        reason: `cost ${cost}`,
        ref: `ref-${i}`,
      });
      balance -= credits;
      expect(first).toMatchObject({ charged: true, credits, debited: credits, shortfall: 0, balanceAfter: balance });

      const [entry] = await sql(stack, `SELECT kind, amount, balance_after, shortfall, provider_cost_usd::text AS cost, ref FROM ledger_entries WHERE id = ?`, [
        first.entryId,
      ]);
      expect(entry).toEqual({ kind, amount: -credits || 0, balance_after: balance, shortfall: 0, cost, ref: `ref-${i}` });

      const again = await charge(stack.orm.em.fork(), { userId: user.userId, idempotencyKey: key, providerCostUsd: cost, kind, reason: 'retry' });
      // `+ 0` turns the -0 of a free charge's negated amount into 0 (toMatchObject tells them apart).
      expect({ ...again, debited: again.debited + 0 }).toMatchObject({
        charged: false,
        credits,
        debited: credits,
        balanceAfter: balance,
        entryId: first.entryId,
      });
    }
    const [{ count }] = (await sql<{ count: string }>(stack, `SELECT count(*)::text AS count FROM ledger_entries WHERE user_id = ? AND kind = ?`, [
      user.userId,
      kind,
    ])) as [{ count: string }];
    expect(Number(count)).toBe(COSTS.length);
    expect(bodyOf(await api(stack, { token: user.token }).GET('/api/credits'), 200).balance).toBe(balance);
    expect(await expectLedgerMatchesBalance(stack, user.userId)).toBe(balance);
  });

  it('takes what is left and records the shortfall when a charge is larger than the balance', async () => {
    const user = await newUser(stack);
    const em = () => stack.orm.em.fork();
    await charge(em(), { userId: user.userId, idempotencyKey: 'big-1', providerCostUsd: '0.0045', kind: 'work', reason: 'x' }); // 450
    const over = await charge(em(), { userId: user.userId, idempotencyKey: 'big-2', providerCostUsd: '0.0016', kind: 'work', reason: 'x' }); // 160
    expect(over).toMatchObject({ charged: true, credits: 160, debited: 50, shortfall: 110, balanceAfter: 0 });
    const empty = await charge(em(), { userId: user.userId, idempotencyKey: 'big-3', providerCostUsd: '0.0004', kind: 'work', reason: 'x' });
    expect(empty).toMatchObject({ charged: true, credits: 40, debited: 0, shortfall: 40, balanceAfter: 0 });
    const [entry] = await sql(stack, `SELECT amount, balance_after, shortfall FROM ledger_entries WHERE id = ?`, [over.entryId]);
    expect(entry).toEqual({ amount: -50, balance_after: 0, shortfall: 110 });
    expect(await expectLedgerMatchesBalance(stack, user.userId)).toBe(0);
  });

  it('refuses garbage costs before touching the ledger', async () => {
    const user = await newUser(stack);
    for (const cost of ['-1', 'abc', '1e999999', 'NaN', '']) {
      await expect(
        charge(stack.orm.em.fork(), { userId: user.userId, idempotencyKey: `bad-${cost}`, providerCostUsd: cost, kind: 'work', reason: 'x' }),
      ).rejects.toThrow(RangeError);
    }
    expect(await expectLedgerMatchesBalance(stack, user.userId)).toBe(500);
  });
});

describe('GET /api/credits', () => {
  it('shows the free plan’s balance and the current period', async () => {
    const user = await newUser(stack);
    const before = Date.now();
    const res = await api(stack, { token: user.token }).GET('/api/credits');
    expectStatus(res, 200);
    expect(res.body).toEqual({ balance: 500, held: 0, plan: 'free', monthlyAllowance: 500, periodStart: expect.any(String), periodEnd: expect.any(String) });
    const start = new Date(res.body.periodStart).getTime();
    const end = new Date(res.body.periodEnd).getTime();
    expect(start).toBeLessThanOrEqual(before);
    expect(before - start).toBeLessThan(60_000);
    expect((end - start) / 86_400_000).toBeGreaterThanOrEqual(28);
    expect((end - start) / 86_400_000).toBeLessThanOrEqual(31);
  });
});

describe('GET /api/credits/ledger', () => {
  it('lists the user’s own entries, newest first, page by page with a cursor', async () => {
    const user = await newUser(stack);
    const stranger = await newUser(stack);
    await charge(stack.orm.em.fork(), { userId: stranger.userId, idempotencyKey: 'stranger', providerCostUsd: '0.0001', kind: 'work', reason: 'not yours' });
    for (let i = 0; i < 7; i++) {
      await charge(stack.orm.em.fork(), {
        userId: user.userId,
        idempotencyKey: `page-${i}`,
        providerCostUsd: '0.0001',
        kind: 'work',
        reason: `charge ${i}`,
        ref: `card-${i}`,
      });
    }
    const seen: LedgerEntry[] = [];
    const page = (cursor: string | null) =>
      api(stack, { token: user.token }).GET('/api/credits/ledger', { params: { query: { limit: 3, ...(cursor ? { cursor } : {}) } } });
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await page(cursor);
      expectStatus(res, 200);
      expect(res.body.items.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.items);
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3); // 8 entries: the grant and 7 charges
    expect(seen).toHaveLength(8);
    const ids = seen.map((e) => BigInt(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => (a > b ? -1 : 1)));
    expect(new Set(ids).size).toBe(8);
    expect(seen[0]).toEqual({
      id: expect.any(String),
      kind: 'work',
      amount: -10,
      balanceAfter: 430,
      reason: 'charge 6',
      ref: 'card-6',
      subject: null,
      createdAt: expect.any(String),
    });
    expect(seen.at(-1)).toMatchObject({ kind: 'grant', amount: 500, balanceAfter: 500, ref: null });
    expect(seen.map((e) => e.reason)).not.toContain('not yours');
    expect(seen.reduce((sum, e) => sum + e.amount, 0)).toBe(430);
  });

  it(`defaults to ${LIST_LIMIT_DEFAULT} entries and refuses a limit over ${LIST_LIMIT_MAX}`, async () => {
    const user = await newUser(stack);
    const res = await api(stack, { cookie: user.cookie }).GET('/api/credits/ledger');
    expect(res.body).toEqual({ items: [expect.objectContaining({ kind: 'grant' })], nextCursor: null });
    expectProblem(
      await api(stack, { token: user.token }).GET('/api/credits/ledger', { params: { query: { limit: LIST_LIMIT_MAX + 1 } } }),
      400,
      'invalid_request',
    );
  });
});
