import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { charge } from '../../../src/features/credits/wallet.ts';
import { prepareCardsWaitingForCredits, prepareWaitingCardsOfRenewedWallets } from '../../../src/features/library/renewal.ts';
import { api, bodyOf, expectProblem, expectStatus } from '../../support/api.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { mintToken, newUser, type TestUser } from '../../support/users.ts';
import { capture, preparationCharges, setBalance, waitForStatus } from './helpers.ts';

// "Prepare when my credits renew": cards that failed for want of credits are prepared again when a
// new period's credits are granted, once each, only for a learner who chose it.

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

const DAYS_BACK = 40;
/** The wallet's period (and the cards' failures) moved 40 days back: the period has ended, the next one is due. */
async function endPeriod(userId: string) {
  const shift = `${DAYS_BACK} days`;
  await stack.orm.em.fork().execute(
    `UPDATE wallets SET period_anchor = period_anchor - ?::interval, period_start = period_start - ?::interval, period_end = period_end - ?::interval
     WHERE user_id = ?`,
    [shift, shift, shift, userId],
  );
  await stack.orm.em.fork().execute(`UPDATE cards SET updated_at = updated_at - ?::interval WHERE user_id = ?`, [shift, userId]);
}

async function brokeWithWaitingCards(texts: string[]): Promise<{ user: TestUser; cardIds: string[] }> {
  const user = await newUser(stack);
  await setBalance(stack, user.userId, 0);
  const cardIds: string[] = [];
  for (const text of texts) {
    const card = await capture(stack, user, text);
    const failed = await waitForStatus(stack, user, card.cardId, 'failed');
    expect(failed.enrichmentError!.code).toBe('insufficient_credits');
    cardIds.push(card.cardId);
  }
  return { user, cardIds };
}

const setChoice = (user: TestUser, prepareOnRenewal: boolean) =>
  api(stack, { token: user.token }).PUT('/api/settings/preparation', { body: { prepareOnRenewal } });

describe('the choice', () => {
  it('is off by default, set with a token and read in the page’s session; a read token cannot set it; bad input is a 400', async () => {
    const user = await newUser(stack);
    expect(bodyOf(await api(stack, { token: user.token }).GET('/api/settings/preparation'), 200)).toEqual({ prepareOnRenewal: false });
    expect(bodyOf(await setChoice(user, true), 200)).toEqual({ prepareOnRenewal: true });
    expect(bodyOf(await api(stack, { cookie: user.cookie }).GET('/api/settings/preparation'), 200)).toEqual({ prepareOnRenewal: true });
    const reader = await mintToken(stack, user.cookie, { scope: 'read' });
    expectProblem(await api(stack, { token: reader.token }).PUT('/api/settings/preparation', { body: { prepareOnRenewal: false } }), 403, 'read_only_token');
    expectProblem(
      await api(stack, { token: user.token }).PUT('/api/settings/preparation', { body: { prepareOnRenewal: 'yes' } as never }),
      400,
      'invalid_request',
    );
    // Another learner's choice is theirs.
    const other = await newUser(stack);
    expect(bodyOf(await api(stack, { token: other.token }).GET('/api/settings/preparation'), 200)).toEqual({ prepareOnRenewal: false });
  });
});

describe('when the period renews', () => {
  it('prepares the waiting cards once each when the learner chose it, on the first read of the renewed wallet', { timeout: 120_000 }, async () => {
    const { user, cardIds } = await brokeWithWaitingCards(['renewal one', 'renewal two']);
    expectStatus(await setChoice(user, true), 200);
    // Within the same period nothing happens: the credits are still used up.
    expect(bodyOf(await api(stack, { token: user.token }).GET('/api/credits'), 200).balance).toBe(0);
    const waiting = bodyOf(await api(stack, { token: user.token }).GET('/api/library/{cardId}', { params: { path: { cardId: cardIds[0]! } } }), 200);
    expect(waiting.card.enrichmentStatus).toBe('failed');

    await endPeriod(user.userId);
    // Two reads at once: each card is sent to preparation once.
    const [a, b] = await Promise.all([api(stack, { token: user.token }).GET('/api/credits'), api(stack, { token: user.token }).GET('/api/credits')]);
    expect(bodyOf(a, 200).balance).toBe(500);
    expectStatus(b, 200);
    for (const cardId of cardIds) await waitForStatus(stack, user, cardId, 'ready');
    // And a later pass finds nothing left to do.
    expect(await prepareCardsWaitingForCredits(stack.context(), user.userId)).toEqual([]);
    const charges = await preparationCharges(stack, user.userId);
    expect(charges.map((c) => c.idempotency_key).sort()).toEqual(cardIds.map((id) => `card-enrichment/${id}/attempt-2`).sort());
    // The ledger names what each charge paid for, in the learner's own words.
    const ledger = bodyOf(await api(stack, { token: user.token }).GET('/api/credits/ledger'), 200).items;
    expect(
      ledger
        .filter((e) => e.kind === 'capture_preparation')
        .map((e) => e.subject)
        .sort(),
    ).toEqual(['renewal one', 'renewal two']);
    expect(ledger.filter((e) => e.kind === 'grant').every((e) => e.subject === null)).toBe(true);
    // An entry whose ref names another learner's card never shows that learner's text.
    const stranger = await newUser(stack);
    await charge(stack.orm.em.fork(), {
      userId: stranger.userId,
      idempotencyKey: `probe/${cardIds[0]}`,
      providerCostUsd: '0.0001',
      kind: 'capture_preparation',
      reason: 'capture preparation',
      ref: cardIds[0]!,
    });
    const theirs = bodyOf(await api(stack, { token: stranger.token }).GET('/api/credits/ledger'), 200).items;
    expect(theirs.find((e) => e.ref === cardIds[0])).toMatchObject({ subject: null });
  });

  it('leaves the cards waiting when the learner did not choose it', { timeout: 120_000 }, async () => {
    const { user, cardIds } = await brokeWithWaitingCards(['no renewal choice']);
    await endPeriod(user.userId);
    expect(bodyOf(await api(stack, { token: user.token }).GET('/api/credits'), 200).balance).toBe(500);
    expect(await prepareCardsWaitingForCredits(stack.context(), user.userId)).toEqual([]);
    expect(await prepareWaitingCardsOfRenewedWallets(stack.context())).toBeGreaterThanOrEqual(0);
    const card = bodyOf(await api(stack, { token: user.token }).GET('/api/library/{cardId}', { params: { path: { cardId: cardIds[0]! } } }), 200).card;
    expect(card.enrichmentStatus).toBe('failed');
    expect(await preparationCharges(stack, user.userId)).toEqual([]);
  });

  it('the sweep over all wallets renews an unread wallet and prepares its cards; cards that failed in the new period wait', { timeout: 120_000 }, async () => {
    const { user, cardIds } = await brokeWithWaitingCards(['sweep renewal']);
    expectStatus(await setChoice(user, true), 200);
    await endPeriod(user.userId);
    await prepareWaitingCardsOfRenewedWallets(stack.context());
    await waitForStatus(stack, user, cardIds[0]!, 'ready');
    // A card that fails for credits in the renewed period waits for the next one.
    await setBalance(stack, user.userId, 0);
    const late = await capture(stack, user, 'failed after renewal');
    await waitForStatus(stack, user, late.cardId, 'failed');
    expect(await prepareCardsWaitingForCredits(stack.context(), user.userId)).toEqual([]);
  });
});
