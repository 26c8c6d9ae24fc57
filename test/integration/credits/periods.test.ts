import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { charge, getWallet, setPlan } from '../../../src/features/credits/wallet.ts';
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

const DAY = 86_400_000;
const em = () => stack.orm.em.fork();
const later = (days: number) => new Date(Date.now() + days * DAY);
const spend = (userId: string, key: string, costUsd: string, now?: Date) =>
  charge(em(), { userId, idempotencyKey: key, providerCostUsd: costUsd, kind: 'work', reason: 'spend' }, now ? { now } : {});

async function entries(userId: string) {
  return sql<{ kind: string; amount: number; balance_after: number; period_start: Date }>(
    stack,
    `SELECT kind, amount, balance_after, period_start FROM ledger_entries WHERE user_id = ? ORDER BY id`,
    [userId],
  );
}

describe('period rollover', () => {
  it('free plan: the unused balance expires and a fresh 500 is granted, no carry-over', async () => {
    const user = await newUser(stack);
    const first = await getWallet(stack.context(), user.userId);
    await spend(user.userId, 'before', '0.001'); // 100 credits

    const next = await getWallet(stack.context(), user.userId, later(31));
    expect(next).toMatchObject({ balance: 500, plan: 'free', monthlyAllowance: 500 });
    expect(next.periodStart).toBe(first.periodEnd);
    expect((await entries(user.userId)).map((e) => [e.kind, e.amount, e.balance_after])).toEqual([
      ['grant', 500, 500],
      ['work', -100, 400],
      ['expiry', -400, 0],
      ['grant', 500, 500],
    ]);
    await expectLedgerMatchesBalance(stack, user.userId);

    // Charges now belong to the new period.
    const spent = await spend(user.userId, 'after', '0.0005', later(31));
    expect(spent.balanceAfter).toBe(450);
    const [entry] = await sql<{ period_start: Date }>(stack, `SELECT period_start FROM ledger_entries WHERE id = ?`, [spent.entryId]);
    expect(new Date(entry!.period_start).toISOString()).toBe(next.periodStart);
    await expectLedgerMatchesBalance(stack, user.userId);
  });

  it('after several idle periods: one expiry, one grant for the period containing now', async () => {
    const user = await newUser(stack);
    const wallet = await getWallet(stack.context(), user.userId, later(100));
    expect(wallet.balance).toBe(500);
    expect(new Date(wallet.periodStart).getTime()).toBeLessThanOrEqual(later(100).getTime());
    expect(new Date(wallet.periodEnd).getTime()).toBeGreaterThan(later(100).getTime());
    expect((await entries(user.userId)).map((e) => e.kind)).toEqual(['grant', 'expiry', 'grant']);
    await expectLedgerMatchesBalance(stack, user.userId);
  });

  it('an empty balance has nothing to expire', async () => {
    const user = await newUser(stack);
    await spend(user.userId, 'all', '0.005'); // 500 credits
    expect((await getWallet(stack.context(), user.userId, later(31))).balance).toBe(500);
    expect((await entries(user.userId)).map((e) => e.kind)).toEqual(['grant', 'work', 'grant']);
    await expectLedgerMatchesBalance(stack, user.userId);
  });

  it('concurrent first accesses in a new period roll over once', async () => {
    const user = await newUser(stack);
    const now = later(31);
    const results = await Promise.all([
      ...Array.from({ length: 10 }, () => getWallet(stack.context(), user.userId, now)),
      ...Array.from({ length: 10 }, (_, i) => spend(user.userId, `race-${i}`, '0.0001', now)),
    ]);
    expect(results).toHaveLength(20);
    const kinds = (await entries(user.userId)).map((e) => e.kind);
    expect(kinds.filter((k) => k === 'grant')).toHaveLength(2);
    expect(kinds.filter((k) => k === 'expiry')).toHaveLength(1);
    expect(await expectLedgerMatchesBalance(stack, user.userId)).toBe(400);
  });

  it('paid plan via setPlan: 5,000 at once, then 5,000 each period, no carry-over', async () => {
    const user = await newUser(stack);
    await spend(user.userId, 'free-spend', '0.0001'); // 10
    const paid = await setPlan(stack.context(), user.userId, 'paid');
    expect(paid).toMatchObject({ balance: 5000, plan: 'paid', monthlyAllowance: 5000 });
    expect((await entries(user.userId)).slice(-2).map((e) => [e.kind, e.amount])).toEqual([
      ['expiry', -490],
      ['grant', 5000],
    ]);
    expect((await api(stack, { token: user.token }).GET('/api/credits')).body).toMatchObject({ balance: 5000, plan: 'paid', monthlyAllowance: 5000 });
    expect(bodyOf(await api(stack, { token: user.token }).GET('/api/me'), 200).plan).toBe('paid');

    await spend(user.userId, 'paid-spend', '0.01'); // 1,000
    const next = await getWallet(stack.context(), user.userId, later(31));
    expect(next).toMatchObject({ balance: 5000, plan: 'paid' });
    expect(next.periodStart).toBe(paid.periodEnd);
    expect((await entries(user.userId)).slice(-2).map((e) => [e.kind, e.amount])).toEqual([
      ['expiry', -4000],
      ['grant', 5000],
    ]);
    await expectLedgerMatchesBalance(stack, user.userId);

    // Back to free: the paid balance does not carry over either.
    const free = await setPlan(stack.context(), user.userId, 'free', later(40));
    expect(free).toMatchObject({ balance: 500, plan: 'free', monthlyAllowance: 500 });
    await expectLedgerMatchesBalance(stack, user.userId);
  });
});

describe('npm run set-plan (src/cli/set-plan.ts)', () => {
  const run = (...args: string[]) =>
    promisify(execFile)(path.resolve('node_modules/.bin/tsx'), ['src/cli/set-plan.ts', ...args], {
      env: {
        ...process.env,
        PATH: `${path.dirname(process.execPath)}:${process.env.PATH}`,
        DATABASE_URL: inject('infra').databaseUrl,
        DATA_DIR: '/nonexistent',
      },
    });

  it('moves an account to the paid plan; the API shows it', async () => {
    const user = await newUser(stack);
    const { stdout } = await run(user.email.toUpperCase(), 'paid');
    expect(stdout).toContain('plan paid, balance 5000');
    expect((await api(stack, { token: user.token }).GET('/api/credits')).body).toMatchObject({ balance: 5000, plan: 'paid', monthlyAllowance: 5000 });
    expect(bodyOf(await api(stack, { cookie: user.cookie }).GET('/api/me'), 200).plan).toBe('paid');
    await expectLedgerMatchesBalance(stack, user.userId);
  });

  it('fails with a message for an unknown email or a bad plan', async () => {
    await expect(run('nobody@example.test', 'paid')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('No account') });
    await expect(run('nobody@example.test', 'gold')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('usage') });
  });
});
