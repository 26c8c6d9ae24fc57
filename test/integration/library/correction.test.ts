import { describe, expect, it } from 'vitest';
import type { Stack } from '../../support/stack.ts';
import { useStack } from '../../support/fixture.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { capture, waitForStatus } from './helpers.ts';
import { api, bodyOf, expectProblem, rawHttp } from '../../support/api.ts';

let stack: Stack;
let user: TestUser;
useStack((started) => ({ stack, user } = started));

type Auth = { cookie: string } | { token: string };

/** Rejects the correction over REST (DELETE) or tRPC (a mutation); answers the card and the status. */
const transports: [string, (auth: Auth, cardId: string) => Promise<{ status: number; card: any; problem: any }>][] = [
  [
    'REST',
    async (auth, cardId) => {
      const res = await api(stack, auth).DELETE('/api/library/{cardId}/correction', { params: { path: { cardId } } });
      return { status: res.status, card: res.status === 200 ? res.body.card : undefined, problem: res.status >= 400 ? res.body : null };
    },
  ],
  [
    'tRPC',
    async (auth, cardId) => {
      const res = await rawHttp(stack, 'POST', '/trpc/library.rejectCorrection', { ...auth, body: { cardId } });
      return { status: res.status, card: res.body.result?.data.card, problem: res.body.error?.data.problem ?? null };
    },
  ],
];

const openReplay = async (u: TestUser) => bodyOf(await api(stack, { token: u.token }).GET('/api/replay', { params: { query: { count: '10' } } }), 200);

describe.each(transports)('rejecting a quiet correction over %s', (transport, reject) => {
  it('keeps the learner’s text, drops the correction, and Replay drills the learner’s text', async () => {
    const learner = await newUser(stack);
    const card = await capture(stack, learner, `I recieve it by ${transport}`);
    const ready = await waitForStatus(stack, learner, card.cardId, 'ready');
    expect(ready.enrichment).toMatchObject({ correctedText: `I receive it by ${transport}`, correctionNote: expect.any(String) });
    // An item opened while the correction stood follows the card once it is rejected.
    expect((await openReplay(learner)).items[0]!.answer).toBe(`I receive it by ${transport}`);

    const rejected = await reject({ cookie: learner.cookie }, card.cardId);
    expect(rejected.status).toBe(200);
    expect(rejected.card).toMatchObject({
      cardId: card.cardId,
      text: `I recieve it by ${transport}`,
      enrichmentStatus: 'ready',
      scheduling: { reps: 0 },
      enrichment: { correctedText: null, correctionNote: null, translation: ready.enrichment!.translation, usage: ready.enrichment!.usage },
    });
    const stored = bodyOf(await api(stack, { token: learner.token }).GET('/api/library/{cardId}', { params: { path: { cardId: card.cardId } } }), 200);
    expect(stored.card).toEqual(rejected.card);
    const item = (await openReplay(learner)).items[0]!;
    expect(item.answer).toBe(`I recieve it by ${transport}`);
    expect(Array.from(item.mask)).toHaveLength(item.answer.length);

    // Again: nothing left to reject, the card is answered as it is.
    const again = await reject({ token: learner.token }, card.cardId);
    expect(again).toMatchObject({ status: 200, card: rejected.card });
  });

  it('refuses a card still being prepared (409), and an unknown or another learner’s card (404)', async () => {
    stack.fake.setLatency(3000);
    const pending = await capture(stack, user, `pending while rejected over ${transport}`);
    const conflict = await reject({ token: user.token }, pending.cardId);
    expect(conflict.status).toBe(409);
    expect(conflict.problem).toMatchObject({ code: 'conflict' });
    stack.fake.setLatency(0);

    const stranger = await newUser(stack);
    expect((await reject({ token: stranger.token }, pending.cardId)).problem).toMatchObject({ code: 'not_found', status: 404 });
    expect((await reject({ token: user.token }, '5d0f7a59-1d1c-4a53-9c59-2f0e4a3d6b7e')).status).toBe(404);
  });
});

it('answers a read token 403 and a malformed id 400 (REST)', async () => {
  const minted = bodyOf(await api(stack, { cookie: user.cookie }).POST('/api/tokens', { body: { name: 'reader', scope: 'read' } }), 201);
  const card = await capture(stack, user, 'teh read token case');
  const rejectCorrection = (token: string, cardId: string) =>
    api(stack, { token }).DELETE('/api/library/{cardId}/correction', { params: { path: { cardId } } });
  expectProblem(await rejectCorrection(minted.token, card.cardId), 403, 'read_only_token');
  expectProblem(await rejectCorrection(user.token, 'not-a-card'), 400, 'invalid_request');
});
