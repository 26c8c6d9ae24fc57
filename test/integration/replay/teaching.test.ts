// Issue 15, stage 2: desired retention, the forecast, undo and corrections, on REST and tRPC.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { operations } from '../../../clients/rest/schema.d.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { hoursAgo, insertCard } from './cards.ts';
import { api, bodyOf, expectProblem, expectStatus, rawHttp } from '../../support/api.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ worker: false });
});
afterAll(async () => {
  await stack?.close();
});

const open = (user: TestUser) => api(stack, { token: user.token }).GET('/api/replay', { params: { query: { count: '10' } } });
/** The open session's items, or the first of them: the answer must be 200. */
const items = async (user: TestUser) => bodyOf(await open(user), 200).items;
const firstItem = async (user: TestUser) => (await items(user))[0]!;
type Evidence = Partial<operations['replay.complete']['requestBody']['content']['application/json']>;
const complete = (user: TestUser, itemId: string, evidence: Evidence = {}) =>
  api(stack, { token: user.token }).POST('/api/replay', { body: { itemId, usedHint: false, autoFilled: false, unaidedErrors: 0, ...evidence } });
const undo = (user: TestUser, itemId: string) => api(stack, { token: user.token }).POST('/api/replay/undo', { body: { itemId } });
const trpcQuery = (user: TestUser, path: string) => rawHttp(stack, 'GET', `/trpc/${path}`, { token: user.token });
const trpcMutate = (user: TestUser, path: string, input: unknown) => rawHttp(stack, 'POST', `/trpc/${path}`, { token: user.token, body: input });
const hoursAhead = (h: number) => new Date(Date.now() + h * 3_600_000);
const schedule = async (cardId: string) => (await stack.orm.em.fork().execute<any[]>(`SELECT * FROM card_schedules WHERE card_id = ?`, [cardId]))[0];

describe('GET /api/replay/forecast', () => {
  it('counts due now, the next due time and 14 days ahead, on REST and tRPC alike', async () => {
    const user = await newUser(stack);
    await insertCard(stack.orm, user.userId, { text: 'overdue one', state: 'review', due: hoursAgo(50) });
    await insertCard(stack.orm, user.userId, { text: 'overdue two', state: 'review', due: hoursAgo(1) });
    const next = hoursAhead(3);
    await insertCard(stack.orm, user.userId, { text: 'soon', state: 'review', due: next });
    await insertCard(stack.orm, user.userId, { text: 'in two days', state: 'review', due: hoursAhead(48) });
    await insertCard(stack.orm, user.userId, { text: 'in a month', state: 'review', due: hoursAhead(24 * 30) });
    await insertCard(stack.orm, user.userId, { text: 'never reviewed' });
    await insertCard(stack.orm, user.userId, { text: 'not ready', state: 'review', due: hoursAgo(1), status: 'pending' });

    const rest = await api(stack, { token: user.token }).GET('/api/replay/forecast');
    expectStatus(rest, 200);
    expect(rest.body).toMatchObject({ dueNow: 2, nextDueAt: next.toISOString(), newCards: 1 });
    expect(rest.body.days).toHaveLength(14);
    expect(rest.body.days[0]!.date).toBe(new Date().toISOString().slice(0, 10));
    expect(rest.body.days.reduce((n, d) => n + d.due, 0)).toBe(4);
    const inTwoDays = hoursAhead(48).toISOString().slice(0, 10);
    expect(rest.body.days.find((d) => d.date === inTwoDays)!.due).toBe(1);

    const trpc = await trpcQuery(user, 'replay.forecast');
    expectStatus(trpc, 200);
    expect(trpc.body.result.data).toEqual(rest.body);
  });

  it('is empty for an empty library', async () => {
    const user = await newUser(stack);
    const res = bodyOf(await api(stack, { token: user.token }).GET('/api/replay/forecast'), 200);
    expect(res).toMatchObject({ dueNow: 0, nextDueAt: null, newCards: 0 });
    expect(res.days.every((d) => d.due === 0)).toBe(true);
  });
});

describe('desired retention', () => {
  it('defaults to 0.9, is set on REST and tRPC within 0.80–0.97, and drives the scheduler', async () => {
    const keen = await newUser(stack);
    const relaxed = await newUser(stack);
    expect((await api(stack, { token: keen.token }).GET('/api/replay/settings')).body).toMatchObject({
      desiredRetention: 0.9,
      personalSchedule: { longTermReviews: 0, latest: null },
    });

    const put = await api(stack, { token: keen.token }).PUT('/api/replay/settings', { body: { desiredRetention: 0.97 } });
    expectStatus(put, 200);
    expect(put.body).toMatchObject({ desiredRetention: 0.97 });
    const viaTrpc = await trpcMutate(relaxed, 'replay.updateSettings', { desiredRetention: 0.8 });
    expectStatus(viaTrpc, 200);
    expect((await trpcQuery(relaxed, 'replay.settings')).body.result.data).toMatchObject({ desiredRetention: 0.8 });
    // Raw: a typed client cannot send a string or null.
    for (const bad of [0.79, 0.98, '0.9', null]) {
      expectProblem(await rawHttp(stack, 'PUT', '/api/replay/settings', { token: keen.token, body: { desiredRetention: bad } }), 400, 'invalid_request');
    }

    // The same card, reviewed the same way: the keen learner sees it again sooner.
    const nextReview = async (user: TestUser) => {
      await insertCard(stack.orm, user.userId, { text: 'same card', state: 'review', stability: 10, due: hoursAgo(1) });
      const item = await firstItem(user);
      return new Date(bodyOf(await complete(user, item.itemId, { unaidedErrors: 1 }), 200).nextReviewAt).getTime();
    };
    const [keenNext, relaxedNext] = [await nextReview(keen), await nextReview(relaxed)];
    expect(keenNext).toBeLessThan(relaxedNext);
  });
});

describe('POST /api/replay/undo', () => {
  it('restores the card exactly, reopens the item and its session, and takes back only the last rating', async () => {
    const user = await newUser(stack);
    const first = await insertCard(stack.orm, user.userId, { text: 'first card here', state: 'review', stability: 4.321, due: hoursAgo(30) });
    const second = await insertCard(stack.orm, user.userId, { text: 'second card here', state: 'relearning', due: hoursAgo(2) });
    const session = bodyOf(await open(user), 200);
    const itemA = session.items[0]!;
    const itemB = session.items[1]!;
    expect([itemA.cardId, itemB.cardId]).toEqual([first, second]);

    expect((await complete(user, itemA.itemId, { unaidedErrors: 1 })).status).toBe(200);
    const beforeB = await schedule(second);
    const rated = bodyOf(await complete(user, itemB.itemId, { autoFilled: true }), 200);
    expect(rated.rating).toBe('again');
    expect(await schedule(second)).not.toEqual(beforeB);

    expectProblem(await undo(user, itemA.itemId), 409, 'conflict'); // not the last rating
    const undone = await undo(user, itemB.itemId);
    expectStatus(undone, 200);
    expect(undone.body).toEqual({ sessionId: session.sessionId, item: itemB });
    const restored = await schedule(second);
    expect({ ...restored, updated_at: null }).toEqual({ ...beforeB, updated_at: null });
    const logs = await stack.orm.em.fork().execute<any[]>(`SELECT replay_item_id FROM review_logs WHERE card_id IN (?, ?)`, [first, second]);
    expect(logs.map((l) => l.replay_item_id)).toEqual([itemA.itemId]);

    // The session is open again with the item; undo once more now takes back the first rating.
    expect((await open(user)).body).toEqual({ sessionId: session.sessionId, resumed: true, items: [itemB] });
    expectProblem(await undo(user, itemB.itemId), 409, 'conflict');
    expect((await undo(user, itemA.itemId)).status).toBe(200);
    expect((await complete(user, itemA.itemId)).status).toBe(200);
    expect(bodyOf(await complete(user, itemB.itemId), 200).rating).toBe('good');

    // A finished session can still be undone until a new one opens; then no more.
    await insertCard(stack.orm, user.userId, { text: 'third card here' });
    expect(bodyOf(await open(user), 200).resumed).toBe(false);
    expectProblem(await undo(user, itemB.itemId), 409, 'conflict');
    expectProblem(await undo(user, '00000000-0000-4000-8000-000000000000'), 404, 'not_found');
  });

  it('works over tRPC', async () => {
    const user = await newUser(stack);
    await insertCard(stack.orm, user.userId, { text: 'undo over trpc' });
    const item = await firstItem(user);
    await complete(user, item.itemId);
    const res = await trpcMutate(user, 'replay.undo', { itemId: item.itemId });
    expectStatus(res, 200);
    expect(res.body.result.data.item).toEqual(item);
  });
});

describe('corrections', () => {
  it('drills the corrected English, and the learner’s text once the card holds no correction', async () => {
    const user = await newUser(stack);
    const cardId = await insertCard(stack.orm, user.userId, { text: 'he go home', correctedText: 'He goes home.' });
    const item = await firstItem(user);
    expect(item.answer).toBe('He goes home.');

    // A rejected correction leaves the card with the learner's text: a resumed item follows the card.
    await stack.orm.em.fork().execute(`UPDATE cards SET enrichment = enrichment || '{"correctedText": null}'::jsonb WHERE id = ?`, [cardId]);
    const resumed = await firstItem(user);
    expect(resumed).toMatchObject({ itemId: item.itemId, answer: 'he go home' });
    expect(Array.from(resumed.mask)).toHaveLength('he go home'.length);
    const done = bodyOf(await complete(user, item.itemId), 200);
    expect(done.feedback.text).toBe('he go home');
  });
});
