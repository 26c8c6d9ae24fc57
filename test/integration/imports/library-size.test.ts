/**
 * A library's size is bounded per plan, and imports create cards no faster than the plan allows
 * in an hour (issue 33: a free learner imported and cancelled 10,000 expressions three times, 30,000
 * cards in 55 s). Here the free plan holds 5 cards and imports create 3 an hour.
 */
import { describe, expect, it, vi } from 'vitest';
import { api, expectProblem, expectStatus, rawHttp } from '../../support/api.ts';
import { useStack, type Started } from '../../support/fixture.ts';
import type { Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { capture } from '../library/helpers.ts';

let stack: Stack;
useStack((started: Started) => ({ stack } = started), {
  env: { LIBRARY_MAX_CARDS_FREE: '5', IMPORT_CARDS_PER_HOUR_FREE: '3' },
  fakeCost: '0.00001',
});

const importList = (learner: TestUser, expressions: string[]) =>
  rawHttp(stack, 'POST', '/api/library/imports', { token: learner.token, body: { expressions } });

async function completed(learner: TestUser, importId: string) {
  return vi.waitFor(
    async () => {
      const res = await rawHttp(stack, 'GET', `/api/library/imports/${importId}`, { token: learner.token });
      expect(res.body.import.state).toBe('completed');
      return res.body.import;
    },
    { timeout: 60_000, interval: 300 },
  );
}

describe('a library’s size and how fast imports grow it', () => {
  it('refuses a capture past the plan’s cards with library_full; a known expression is still reused, and a deleted card makes room', async () => {
    const learner = await newUser(stack);
    const cards = [];
    for (const text of ['one', 'two', 'three', 'four', 'five']) cards.push(await capture(stack, learner, text));
    const full = await rawHttp(stack, 'POST', '/api/library', { token: learner.token, body: { text: 'six' } });
    expectProblem(full, 409, 'library_full');
    expect(full.body).toMatchObject({ limit: 5, cards: 5, room: 0 });
    expect(full.body.detail).toBe('No new card fits: your library holds 5 cards of the 5 your plan allows. Delete cards you no longer need.');
    // With a sentence too.
    const inContext = await rawHttp(stack, 'POST', '/api/library', { token: learner.token, body: { text: 'six', context: 'Six of one.' } });
    expectProblem(inContext, 409, 'library_full');
    await capture(stack, learner, 'One', 200);
    expectStatus(await api(stack, { token: learner.token }).DELETE('/api/library', { params: { query: { cardId: cards[0]!.cardId } } }), 204);
    await capture(stack, learner, 'six');
  });

  it('admits an import only within the library’s room and the hour’s allowance of new cards, with the wait', async () => {
    const learner = await newUser(stack);
    const first = await importList(learner, ['alpha', 'beta', 'gamma']);
    expect(first.status).toBe(202);
    await completed(learner, first.body.import.importId);

    // The hour's three are taken: two more wait 2/3 of an hour; more than an hour's at once, never.
    const more = await importList(learner, ['delta', 'epsilon']);
    expectProblem(more, 429, 'rate_limited');
    expect(more.body).toMatchObject({ limit: 'import_cards', perHour: 3, detail: expect.stringMatching(/; 2 more fit in (39|40) min\.$/) });
    expect(Number(more.headers.get('retry-after'))).toBeGreaterThan(2_000);
    expect(Number(more.headers.get('retry-after'))).toBeLessThanOrEqual(2_400);
    const tooMany = await importList(learner, ['a1', 'a2', 'a3', 'a4']);
    expectProblem(tooMany, 409, 'library_full'); // 3 + 4 > 5: the library's room is said first
    // Known expressions cost nothing.
    const known = await importList(learner, ['alpha', 'Beta']);
    expect(known.status).toBe(202);
    await completed(learner, known.body.import.importId);

    // Captures are not imports: they fill the library, and then an import finds no room.
    await capture(stack, learner, 'delta');
    await capture(stack, learner, 'epsilon');
    const full = await importList(learner, ['alpha', 'zeta']);
    expectProblem(full, 409, 'library_full');
    expect(full.body).toMatchObject({ limit: 5, cards: 5, room: 0 });
  }, 120_000);

  it('refuses an import of more new cards than an hour allows, whatever the room', async () => {
    const learner = await newUser(stack);
    const res = await importList(learner, ['b1', 'b2', 'b3', 'b4']);
    expectProblem(res, 429, 'rate_limited');
    expect(res.body).toMatchObject({ limit: 'import_cards', perHour: 3 });
    expect(res.body.detail).toBe('This import would create 4 cards; imports create at most 3 an hour on your plan. Split the file.');
    const split = await importList(learner, ['b1', 'b2', 'b3']);
    expect(split.status).toBe(202);
  });
});
