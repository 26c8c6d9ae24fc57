import { afterAll, beforeAll, expect, it } from 'vitest';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser } from '../../support/users.ts';
import { insertCard } from './cards.ts';
import { api, bodyOf, expectProblem, expectStatus, rawHttp } from '../../support/api.ts';

// A card's review history (replay.reviews): what its details page shows, on both transports.

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ worker: false });
});
afterAll(async () => {
  await stack?.close();
});

it('lists a card’s reviews newest first with their evidence, drops an undone one, and keeps other users out', async () => {
  const user = await newUser(stack);
  const cardId = await insertCard(stack.orm, user.userId, { text: 'on the fence' });
  const reviews = async () => bodyOf(await api(stack, { token: user.token }).GET('/api/replay/reviews', { params: { query: { cardId } } }), 200).items;
  expect(await reviews()).toEqual([]);

  const practise = async (evidence: object) => {
    const item = bodyOf(await api(stack, { token: user.token }).GET('/api/replay', { params: { query: { count: '10' } } }), 200).items[0]!;
    const done = await api(stack, { token: user.token }).POST('/api/replay', {
      body: { itemId: item.itemId, usedHint: false, autoFilled: false, unaidedErrors: 0, ...evidence },
    });
    expectStatus(done, 200);
    return item.itemId;
  };
  await practise({ autoFilled: true, durationMs: 4200 });
  await stack.orm.em.fork().execute(`UPDATE card_schedules SET due = now() WHERE card_id = ?`, [cardId]);
  const second = await practise({ usedHint: true, unaidedErrors: 2 });
  expect(await reviews()).toEqual([
    { rating: 'hard', reviewedAt: expect.any(String), usedHint: true, autoFilled: false, unaidedErrors: 2, durationMs: null },
    { rating: 'again', reviewedAt: expect.any(String), usedHint: false, autoFilled: true, unaidedErrors: 0, durationMs: 4200 },
  ]);

  // The same over tRPC, with the page's session.
  const viaTrpc = await rawHttp(stack, 'GET', `/trpc/replay.reviews?input=${encodeURIComponent(JSON.stringify({ cardId }))}`, { cookie: user.cookie });
  expect(viaTrpc.body.result.data.items).toEqual(await reviews());

  expect((await api(stack, { token: user.token }).POST('/api/replay/undo', { body: { itemId: second } })).status).toBe(200);
  expect((await reviews()).map((r) => r.rating)).toEqual(['again']);

  const stranger = await newUser(stack);
  expectProblem(await api(stack, { token: stranger.token }).GET('/api/replay/reviews', { params: { query: { cardId } } }), 404, 'not_found');
  expectProblem(await api(stack, { token: user.token }).GET('/api/replay/reviews', { params: { query: { cardId: 'nope' } } }), 400, 'invalid_request');
});
