import { describe, expect, it, vi } from 'vitest';
import { charge } from '../../../src/features/credits/wallet.ts';
import { useStack } from '../../support/fixture.ts';
import type { Stack } from '../../support/stack.ts';
import type { TestUser } from '../../support/users.ts';
import { expectLedgerMatchesBalance, sql } from '../../support/helpers.ts';
import { capture, waitForStatus } from '../library/helpers.ts';

let stack: Stack;
let user: TestUser;
useStack((started) => ({ stack, user } = started));

// A card's result is stored by the statement that then locks the learner's wallet (src/features/library/preparation.ts):
// one round trip for both. Locked after waiting, the wallet row it reads must be the one the other charge left.
describe("a card's charge while another charge holds the wallet", () => {
  it('waits for it, then charges on the balance that charge left: the ledger still sums to the balance', async () => {
    stack.fake.setLatency(1_500); // the fake is reset before each test
    const card = await capture(stack, user, 'break a leg');
    // The card's credits are held (the hold took the wallet's lock and let it go) before its model call goes out.
    await vi.waitFor(async () => expect(await sql(stack, `SELECT 1 FROM credit_holds WHERE user_id = ?`, [user.userId])).toHaveLength(1), {
      timeout: 20_000,
      interval: 50,
    });
    await stack.orm.em.fork().transactional(async (tx) => {
      await charge(tx, { userId: user.userId, idempotencyKey: 'elsewhere', providerCostUsd: '0.001', kind: 'work', reason: 'another charge' });
      // Held until the card's statement waits for this wallet.
      await vi.waitFor(
        async () => {
          const waiting = await sql(
            stack,
            `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%UPDATE cards SET enrichment%' AND query LIKE '%FOR UPDATE OF w%'`,
          );
          expect(waiting).toHaveLength(1);
        },
        { timeout: 20_000, interval: 50 },
      );
    });
    await waitForStatus(stack, user, card.cardId, 'ready');
    const entries = await sql<{ kind: string; amount: number; balance_after: number }>(
      stack,
      `SELECT kind, amount, balance_after FROM ledger_entries WHERE user_id = ? AND kind <> 'grant' ORDER BY id`,
      [user.userId],
    );
    expect(entries.map((e) => e.kind)).toEqual(['work', 'capture_preparation']);
    // Each entry's balance follows from the one before: the card's charge saw the other charge's balance.
    expect(entries[1]!.balance_after).toBe(entries[0]!.balance_after + entries[1]!.amount);
    expect(await expectLedgerMatchesBalance(stack, user.userId)).toBe(entries[1]!.balance_after);
  });
});
