import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ENCOUNTERS_PER_DAY } from '../../../src/domain/limits.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { api, bodyOf, expectProblem, expectStatus } from '../../support/api.ts';
import { capture, waitForStatus } from './helpers.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(() => {
  stack.fake.reset();
  stack.fake.setCost('0.00001');
});

const report = (user: TestUser, pageViewId: string, cardIds: string[], metAt = new Date()) =>
  api(stack, { token: user.token }).POST('/api/encounters', {
    body: { pageViewId, encounters: cardIds.map((cardId) => ({ cardId, metAt: metAt.toISOString() })) },
  });

const cardOf = async (user: TestUser, cardId: string) =>
  bodyOf(await api(stack, { token: user.token }).GET('/api/library/{cardId}', { params: { path: { cardId } } }), 200).card;

describe('POST /api/encounters', () => {
  let user: TestUser;
  let bank: string;
  let leg: string;
  beforeAll(async () => {
    user = await newUser(stack);
    bank = (await capture(stack, user, 'bank')).cardId;
    leg = (await capture(stack, user, 'break a leg')).cardId;
  });

  it('counts a card once per page view, however often the batch or the card is sent, and shows it on the card', async () => {
    const page = randomUUID();
    const first = await report(user, page, [bank, bank, leg]);
    expectStatus(first, 200);
    expect(first.body).toEqual({ recorded: 2, alreadyRecorded: 0 });
    expect(bodyOf(await report(user, page, [bank, leg]), 200)).toEqual({ recorded: 0, alreadyRecorded: 2 });
    const yesterday = new Date(Date.now() - 86_400_000);
    expect(bodyOf(await report(user, randomUUID(), [bank], yesterday), 200)).toEqual({ recorded: 1, alreadyRecorded: 0 });

    const card = await cardOf(user, bank);
    expect(card.metCount).toBe(2);
    // The latest time stays the latest, whatever order the batches arrive in.
    expect(new Date(card.lastMetAt!).getTime()).toBeGreaterThan(yesterday.getTime());
    expect(card.encounters).toHaveLength(2);
  });

  it('never enters the review log, nor its FSRS export', async () => {
    const reviews = await stack.orm.em.fork().execute(`SELECT 1 FROM review_logs WHERE card_id = ?`, [bank]);
    expect(reviews).toEqual([]);
    const exported = await api(stack, { token: user.token }).GET('/api/library/export', { params: { query: { format: 'reviews' } }, parseAs: 'text' });
    expect(exported.text).not.toContain(bank);
  });

  it('sorts the library by "met most often"', async () => {
    await report(user, randomUUID(), [leg]);
    await report(user, randomUUID(), [leg]);
    await report(user, randomUUID(), [leg]);
    const byMet = bodyOf(await api(stack, { token: user.token }).GET('/api/library', { params: { query: { sort: 'met' } } }), 200);
    expect(byMet.items.map((c) => c.cardId)).toEqual([leg, bank]);
    const paged = bodyOf(await api(stack, { token: user.token }).GET('/api/library', { params: { query: { sort: 'met', limit: 1 } } }), 200);
    const next = bodyOf(
      await api(stack, { token: user.token }).GET('/api/library', { params: { query: { sort: 'met', limit: 1, cursor: paged.nextCursor! } } }),
      200,
    );
    expect([...paged.items, ...next.items].map((c) => c.cardId)).toEqual([leg, bank]);
    expect(next.nextCursor).toBeNull();
  });

  it('404 for another user’s card or an unknown one, naming them, and records nothing of the batch', async () => {
    const other = await newUser(stack);
    const theirs = (await capture(stack, other, 'bank')).cardId;
    const unknown = randomUUID();
    const res = await report(user, randomUUID(), [bank, theirs, unknown]);
    expectProblem(res, 404, 'not_found');
    expect((res.body as unknown as { unknownCardIds: string[] }).unknownCardIds.sort()).toEqual([theirs, unknown].sort());
    expect((await cardOf(user, bank)).metCount).toBe(2);
    expect((await cardOf(other, theirs)).metCount).toBe(0);
  });

  it('400 for a time ahead of the clock or older than a week, and for a batch that is not one', async () => {
    expectProblem(await report(user, randomUUID(), [bank], new Date(Date.now() + 3_600_000)), 400, 'invalid_request');
    expectProblem(await report(user, randomUUID(), [bank], new Date(Date.now() - 8 * 86_400_000)), 400, 'invalid_request');
    expectProblem(await report(user, randomUUID(), []), 400, 'invalid_request');
    expectProblem(await report(user, 'https://example.com/article', [bank]), 400, 'invalid_request');
  });

  it('a first batch of any size within the limit is recorded: 3 to 9 cards were once refused as over 2,000 (the limit compared as text)', async () => {
    const reader = await newUser(stack);
    const cards = await Promise.all(['one', 'two', 'three', 'four'].map(async (text) => (await capture(stack, reader, `met ${text}`)).cardId));
    expect(bodyOf(await report(reader, randomUUID(), cards), 200)).toEqual({ recorded: 4, alreadyRecorded: 0 });
    for (const cardId of cards) expect((await cardOf(reader, cardId)).metCount).toBe(1);
  });

  it('a flood past the daily limit is 429 with Retry-After until the next UTC day, and records nothing more', async () => {
    const flooder = await newUser(stack);
    const card = (await capture(stack, flooder, 'flood')).cardId;
    // The service counts on the UTC day of its own clock (this process's), not PostgreSQL's: both today and
    // tomorrow are full, so the request is refused even when a UTC midnight passes before it arrives.
    const today = Date.now();
    for (const day of [today, today + 86_400_000]) {
      await stack.orm.em
        .fork()
        .execute(`INSERT INTO encounter_days (user_id, day, recorded) VALUES (?, ?::date, ?)`, [
          flooder.userId,
          new Date(day).toISOString().slice(0, 10),
          ENCOUNTERS_PER_DAY,
        ]);
    }
    const res = await report(flooder, randomUUID(), [card]);
    expectProblem(res, 429, 'rate_limited');
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    expect((await cardOf(flooder, card)).metCount).toBe(0);
  });

  it('deleting the card deletes its encounters', async () => {
    const owner = await newUser(stack);
    const card = (await capture(stack, owner, 'gone soon')).cardId;
    await waitForStatus(stack, owner, card, 'ready');
    await report(owner, randomUUID(), [card]);
    expectStatus(await api(stack, { token: owner.token }).DELETE('/api/library', { params: { query: { cardId: card } } }), 204);
    expect(await stack.orm.em.fork().execute(`SELECT 1 FROM card_encounters WHERE card_id = ?`, [card])).toEqual([]);
  });
});
