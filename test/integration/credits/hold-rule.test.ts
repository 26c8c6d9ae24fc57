import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { type HoldRequest, reserveCredits } from '../../../src/features/credits/holds.ts';
import { useStack } from '../../support/fixture.ts';
import type { Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { sql } from '../../support/helpers.ts';

let stack: Stack;
let user: TestUser;
useStack((started) => ({ stack, user } = started));

// What a unit of work holds before its provider call, decided in one round trip under the wallet's lock
// (credit_hold_reserve, src/db/migrations/0032-credit-hold-reserve.ts).

const unit = (userId: string, maxCredits: number): HoldRequest => ({
  userId,
  key: `work/${randomUUID()}`,
  task: 'work_draft',
  maxCredits,
  lifetimeMs: 60_000,
});

/** Another unit's hold of `credits`, live for an hour. */
const OTHER_HOLD = `INSERT INTO credit_holds (user_id, hold_key, task, credits, expires_at) VALUES (?, ?, 'work_draft', ?, now() + interval '1 hour')`;

/** The user's wallet at `balance`, with one other unit's live hold of `others` (none at 0). */
async function walletWith(userId: string, balance: number, others: number) {
  await sql(stack, `DELETE FROM credit_holds WHERE user_id = ?`, [userId]);
  await sql(stack, `UPDATE wallets SET balance = ? WHERE user_id = ?`, [balance, userId]);
  if (others > 0) await sql(stack, OTHER_HOLD, [userId, 'work/other', others]);
}

const reserve = (request: HoldRequest, now?: Date) => reserveCredits(stack.orm.em.fork(), request, now);

describe('what a unit holds', () => {
  it.each([
    { balance: 500, others: 0, max: 128, expected: { credits: 128 }, why: "the unit's maximum cost when it fits" },
    { balance: 500, others: 450, max: 128, expected: { credits: 50 }, why: 'what other holds leave, when less' },
    { balance: 1, others: 0, max: 128, expected: { credits: 1 }, why: 'the last credit' },
    { balance: 500, others: 0, max: 0, expected: { credits: 0 }, why: 'a free call still needs something available' },
    { balance: 0, others: 0, max: 128, expected: { refused: 'empty' }, why: 'nothing left' },
    { balance: 1, others: 1, max: 128, expected: { refused: 'held' }, why: 'all of it held by work in progress' },
    { balance: 100, others: 300, max: 1, expected: { refused: 'held' }, why: 'holds larger than the balance (plan changed)' },
  ])('$balance − $others held, max $max → $expected ($why)', async ({ balance, others, max, expected }) => {
    await walletWith(user.userId, balance, others);
    const request = unit(user.userId, max);
    if ('credits' in expected) {
      expect(await reserve(request)).toEqual({ credits: expected.credits, lostCalls: [] });
      const [own] = await sql<{ credits: number }>(stack, `SELECT credits FROM credit_holds WHERE user_id = ? AND hold_key = ?`, [user.userId, request.key]);
      expect(own?.credits).toBe(expected.credits);
    } else {
      await expect(reserve(request)).rejects.toMatchObject({ code: 'insufficient_credits', reason: expected.refused });
      expect(await sql(stack, `SELECT 1 FROM credit_holds WHERE user_id = ? AND hold_key = ?`, [user.userId, request.key])).toHaveLength(0);
    }
  });

  it('counts a hold committed while it waited for the wallet: read after the lock, not from before it', async () => {
    await walletWith(user.userId, 10, 0);
    let reservation: Promise<unknown> | undefined;
    await stack.orm.em.fork().transactional(async (tx) => {
      await tx.execute(`SELECT balance FROM wallets WHERE user_id = ? FOR UPDATE`, [user.userId]);
      await tx.execute(OTHER_HOLD, [user.userId, 'work/first', 10]);
      reservation = reserve(unit(user.userId, 1)).catch((error: unknown) => error);
      const waiting = `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%credit_hold_reserve%'`;
      await vi.waitFor(async () => expect(await sql(stack, waiting)).toHaveLength(1), { timeout: 20_000, interval: 50 });
    });
    expect(await reservation).toMatchObject({ code: 'insufficient_credits', reason: 'held' });
  });

  it('never holds more than the balance, however many units ask at once', async () => {
    await walletWith(user.userId, 10, 0);
    const answers = await Promise.all(Array.from({ length: 25 }, () => reserve(unit(user.userId, 1)).catch((error: unknown) => error)));
    expect(answers.filter((answer) => (answer as { credits?: number }).credits === 1)).toHaveLength(10);
    expect(answers.filter((answer) => (answer as { reason?: string }).reason === 'held')).toHaveLength(15);
  });

  it('the first in a new period rolls the wallet over, then holds from the new allowance', async () => {
    const fresh = await newUser(stack);
    await walletWith(fresh.userId, 0, 0);
    const later = new Date(Date.now() + 62 * 24 * 3600 * 1000);
    expect(await reserve(unit(fresh.userId, 128), later)).toEqual({ credits: 128, lostCalls: [] });
    const [wallet] = await sql<{ balance: number; current: boolean }>(
      stack,
      `SELECT balance, period_start <= ?::timestamptz AND ?::timestamptz < period_end AS current FROM wallets WHERE user_id = ?`,
      [later, later, fresh.userId],
    );
    expect(wallet).toEqual({ balance: 500, current: true });
  });

  it.each([-1, 0.5, Number.NaN])('a maximum of %s is a bug, refused before the wallet is read: nothing held', async (max) => {
    await walletWith(user.userId, 500, 0);
    const request = unit(user.userId, max);
    await expect(reserve(request)).rejects.toThrow(RangeError);
    expect(await sql(stack, `SELECT 1 FROM credit_holds WHERE user_id = ?`, [user.userId])).toHaveLength(0);
  });

  it('a user without a wallet: not found, nothing held', async () => {
    await expect(reserve(unit(randomUUID(), 1))).rejects.toMatchObject({ code: 'not_found' });
  });
});
