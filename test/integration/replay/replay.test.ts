import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLAY_COUNTS } from '../../../src/domain/limits.ts';
import type { operations } from '../../../clients/rest/schema.d.ts';
import { buildMask, hiddenCount } from '../../../src/features/replay/mask.ts';
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

type Count = operations['replay.session']['parameters']['query']['count'];
const open = (user: TestUser, count: Count = 10) => api(stack, { token: user.token }).GET('/api/replay', { params: { query: { count } } });
/** A session the test goes on with: the answer must be 200. */
const session = async (user: TestUser, count: Count = 10) => bodyOf(await open(user, count), 200);
const complete = (
  user: TestUser,
  itemId: string,
  evidence: Partial<{ usedHint: boolean; autoFilled: boolean; unaidedErrors: number; durationMs: number }> = {},
) => api(stack, { token: user.token }).POST('/api/replay', { body: { itemId, usedHint: false, autoFilled: false, unaidedErrors: 0, ...evidence } });

async function count(sql: string, params: unknown[]): Promise<number> {
  const [row] = await stack.orm.em.fork().execute<{ n: string }[]>(sql, params);
  return Number(row!.n);
}

describe('GET /api/replay', () => {
  it('orders due reviewed cards first (most overdue first), then new ones; ready cards only', async () => {
    const user = await newUser(stack);
    const ids = {
      dueLong: await insertCard(stack.orm, user.userId, { text: 'under the weather', state: 'review', due: hoursAgo(48) }),
      dueSoon: await insertCard(stack.orm, user.userId, { text: 'a piece of cake', state: 'relearning', due: hoursAgo(1) }),
      newOld: await insertCard(stack.orm, user.userId, { text: 'break a leg', createdAt: hoursAgo(30), correctedText: 'Break a leg!' }),
      newRecent: await insertCard(stack.orm, user.userId, { text: 'hit the sack', createdAt: hoursAgo(2) }),
    };
    await insertCard(stack.orm, user.userId, { text: 'not due yet', state: 'review', due: new Date(Date.now() + 86_400_000) });
    await insertCard(stack.orm, user.userId, { text: 'still preparing', status: 'pending', createdAt: hoursAgo(40) });
    await insertCard(stack.orm, user.userId, { text: 'preparation failed', status: 'failed', createdAt: hoursAgo(40) });

    const res = await open(user);
    expectStatus(res, 200);
    expect(res.body.resumed).toBe(false);
    expect(res.body.sessionId).toEqual(expect.any(String));
    expect(res.body.items.map((i) => i.cardId)).toEqual([ids.dueLong, ids.dueSoon, ids.newOld, ids.newRecent]);

    const corrected = res.body.items[2]!;
    expect(corrected).toMatchObject({ prompt: '[fr] break a leg', answer: 'Break a leg!' });
    for (const item of res.body.items) {
      expect(Array.from(item.mask)).toHaveLength(Array.from(item.answer).length);
      expect(item.mask).toMatch(/^[_.]+$/);
      expect(hiddenCount(item.mask)).toBeGreaterThan(0);
    }
    // A new card's mask is buildMask at stability 0, reps 0.
    expect(corrected.mask).toBe(buildMask({ cardId: ids.newOld, answer: 'Break a leg!', stability: 0, reps: 0 }));
  });

  it('limits a new session to count, never repeating a card', async () => {
    const user = await newUser(stack);
    for (let i = 0; i < 12; i++) await insertCard(stack.orm, user.userId, { text: `expression number ${i}`, createdAt: hoursAgo(20 - i) });
    const res = await session(user, 10);
    expect(res.items).toHaveLength(10);
    expect(new Set(res.items.map((i) => i.cardId)).size).toBe(10);
  });

  it('resumes an unfinished session with its remaining items, whatever the count', async () => {
    const user = await newUser(stack);
    for (let i = 0; i < 3; i++) await insertCard(stack.orm, user.userId, { text: `resume me ${i}`, createdAt: hoursAgo(10 - i) });
    const first = await session(user);
    expect(first.items).toHaveLength(3);

    const again = await open(user, 50);
    expect(again.body).toEqual({ ...first, resumed: true });

    expect((await complete(user, first.items[0]!.itemId)).status).toBe(200);
    const resumed = await session(user);
    expect(resumed.resumed).toBe(true);
    expect(resumed.sessionId).toBe(first.sessionId);
    expect(resumed.items).toEqual(first.items.slice(1));

    for (const item of resumed.items) expect((await complete(user, item.itemId)).status).toBe(200);
    const finished = await count(`SELECT count(*) AS n FROM replay_sessions WHERE id = ? AND finished_at IS NOT NULL`, [first.sessionId]);
    expect(finished).toBe(1);
    // The finished session is not resumed; the cards just reviewed are not due yet except those rated again.
    const next = await session(user);
    expect(next.resumed).toBe(false);
    expect(next.sessionId).not.toBe(first.sessionId);
  });

  it('opens one session when two GETs race', async () => {
    const user = await newUser(stack);
    for (let i = 0; i < 5; i++) await insertCard(stack.orm, user.userId, { text: `race ${i}` });
    const answers = await Promise.all([open(user), open(user), open(user, 20)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    const sessions = answers.map((r) => bodyOf(r, 200));
    expect(new Set(sessions.map((s) => s.sessionId)).size).toBe(1);
    expect(sessions.map((s) => s.resumed).filter((r) => !r)).toHaveLength(1);
    expect(await count(`SELECT count(*) AS n FROM replay_sessions WHERE user_id = ?`, [user.userId])).toBe(1);
  });

  it('answers an empty library with no items and no session', async () => {
    const user = await newUser(stack);
    const res = await open(user);
    expectStatus(res, 200);
    expect(res.body).toEqual({ sessionId: null, resumed: false, items: [] });
  });

  it(`rejects counts other than ${REPLAY_COUNTS.join(', ')}`, async () => {
    const user = await newUser(stack);
    // Raw: a typed client knows only the counts the document lists, and that count is required.
    for (const bad of ['15', '0', 'ten', '10.0', ''])
      expectProblem(await rawHttp(stack, 'GET', `/api/replay?count=${bad}`, { token: user.token }), 400, 'invalid_request');
    expectProblem(await rawHttp(stack, 'GET', '/api/replay', { token: user.token }), 400, 'invalid_request');
    for (const count of REPLAY_COUNTS) expect((await open(user, count)).status).toBe(200);
  });

  it('ends a session whose remaining cards were deleted, and deleting a card removes its learning data', async () => {
    const user = await newUser(stack);
    const cardId = await insertCard(stack.orm, user.userId, { text: 'gone soon' });
    const first = await session(user);
    expect((await complete(user, first.items[0]!.itemId, { autoFilled: true })).status).toBe(200);
    const second = await session(user); // rated again → due in a minute, so a fresh session is empty or new
    expect(second.resumed).toBe(false);

    await stack.orm.em.fork().execute(`DELETE FROM cards WHERE id = ?`, [cardId]);
    expect(await count(`SELECT count(*) AS n FROM review_logs WHERE card_id = ?`, [cardId])).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM replay_items WHERE card_id = ?`, [cardId])).toBe(0);
    expect((await open(user)).body).toEqual({ sessionId: null, resumed: false, items: [] });
  });
});

describe('POST /api/replay', () => {
  it('maps evidence to ratings, reschedules, logs the review and charges nothing', async () => {
    const user = await newUser(stack);
    const long = 'she was feeling under the weather all week long';
    for (let i = 0; i < 5; i++) await insertCard(stack.orm, user.userId, { text: `${long} ${'abcde'[i]}`, createdAt: hoursAgo(10 - i) });
    // A card known for months, due now: its mask hides every letter, so a clean, quick answer is easy.
    const known = await insertCard(stack.orm, user.userId, { text: 'over the moon', state: 'review', stability: 90, reps: 6, due: hoursAgo(1) });
    const body = await session(user);
    const knownItem = body.items[0]!;
    const items = body.items.slice(1);
    expect(knownItem.cardId).toBe(known);
    expect(knownItem.mask).toBe('____.___.____');
    const hidden = hiddenCount(items[3]!.mask);
    expect(hidden).toBeGreaterThanOrEqual(10);

    const cases: [Parameters<typeof complete>[2], string][] = [
      [{ autoFilled: true, usedHint: true }, 'again'],
      [{ usedHint: true }, 'hard'],
      [{ unaidedErrors: 1 }, 'good'],
      [{ unaidedErrors: hidden }, 'hard'],
      [{}, 'good'], // a new card shows each word's first letter: a clean answer is good, not easy
    ];
    for (const [i, [evidence, rating]] of cases.entries()) {
      const item = items[i]!;
      const res = await complete(user, item.itemId, evidence);
      expectStatus(res, 200);
      expect(res.body).toMatchObject({ itemId: item.itemId, cardId: item.cardId, rating });
      expect(new Date(res.body.nextReviewAt).getTime()).toBeGreaterThan(Date.now() - 1000);
      expect(res.body.feedback).toEqual({
        text: item.answer,
        translation: item.prompt,
        usage: { register: 'neutral', guidance: expect.any(String), examples: [expect.any(String)] },
      });
    }
    const [log] = await stack.orm.em
      .fork()
      .execute<any[]>(`SELECT rating, state, used_hint, auto_filled, unaided_errors, hidden_count, duration_ms FROM review_logs WHERE replay_item_id = ?`, [
        items[3]!.itemId,
      ]);
    expect(log).toMatchObject({
      rating: 'hard',
      state: 'new',
      used_hint: false,
      auto_filled: false,
      unaided_errors: hidden,
      hidden_count: hidden,
      duration_ms: null,
    });

    // durationMs is optional evidence: the same clean answer is easy when fluent (≤ 4 s + 0.8 s × 11 here).
    const fluent = bodyOf(await complete(user, knownItem.itemId, { durationMs: 5_000 }), 200);
    expect(fluent.rating).toBe('easy');
    const [knownLog] = await stack.orm.em.fork().execute<any[]>(`SELECT duration_ms FROM review_logs WHERE replay_item_id = ?`, [knownItem.itemId]);
    expect(knownLog.duration_ms).toBe(5_000);
    const [schedule] = await stack.orm.em.fork().execute<any[]>(`SELECT reps, state FROM card_schedules WHERE card_id = ?`, [items[4]!.cardId]);
    expect(schedule).toMatchObject({ reps: 1 });
    expect(schedule.state).not.toBe('new');
    expect(bodyOf(await api(stack, { token: user.token }).GET('/api/credits'), 200).balance).toBe(500);
  });

  it('completes an item once, also when two completions race', async () => {
    const user = await newUser(stack);
    const cardId = await insertCard(stack.orm, user.userId, { text: 'once and for all' });
    const body = await session(user);
    const itemId = body.items[0]!.itemId;
    const [a, b] = await Promise.all([complete(user, itemId, { unaidedErrors: 0 }), complete(user, itemId, { autoFilled: true })]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body).toEqual(b.body);
    const again = await complete(user, itemId, { usedHint: true });
    expect(again.body).toEqual(a.body);
    expect(await count(`SELECT count(*) AS n FROM review_logs WHERE card_id = ?`, [cardId])).toBe(1);
    const [schedule] = await stack.orm.em.fork().execute<any[]>(`SELECT reps FROM card_schedules WHERE card_id = ?`, [cardId]);
    expect(schedule.reps).toBe(1);
  });

  it("answers 404 for another user's item and an unknown one", async () => {
    const owner = await newUser(stack);
    const other = await newUser(stack);
    await insertCard(stack.orm, owner.userId, { text: 'mine only' });
    const body = await session(owner);
    expectProblem(await complete(other, body.items[0]!.itemId), 404, 'not_found');
    expectProblem(await complete(other, '00000000-0000-4000-8000-000000000000'), 404, 'not_found');
    expect((await complete(owner, body.items[0]!.itemId)).status).toBe(200);
  });

  it('validates the evidence', async () => {
    const user = await newUser(stack);
    await insertCard(stack.orm, user.userId, { text: 'validate me' });
    const itemId = (await session(user)).items[0]!.itemId;
    const bad = [
      { itemId, usedHint: false, autoFilled: false, unaidedErrors: -1 },
      { itemId, usedHint: false, autoFilled: false, unaidedErrors: 1.5 },
      { itemId, usedHint: 'no', autoFilled: false, unaidedErrors: 0 },
      { itemId, usedHint: false, unaidedErrors: 0 },
      { itemId: 'not-a-uuid', usedHint: false, autoFilled: false, unaidedErrors: 0 },
      { itemId, usedHint: false, autoFilled: false, unaidedErrors: 0, durationMs: -1 },
      { itemId, usedHint: false, autoFilled: false, unaidedErrors: 0, durationMs: 1.5 },
      { itemId, usedHint: false, autoFilled: false, unaidedErrors: 0, durationMs: '100' },
    ];
    // Raw: a typed client cannot send these.
    for (const body of bad) expectProblem(await rawHttp(stack, 'POST', '/api/replay', { token: user.token, body }), 400, 'invalid_request');
    expect(await count(`SELECT count(*) AS n FROM review_logs WHERE user_id = ?`, [user.userId])).toBe(0);
  });
});

describe('API reference', () => {
  it('documents Replay, audio and work in the OpenAPI document', async () => {
    const res = await rawHttp(stack, 'GET', '/api/openapi.json');
    expect(res.status, res.text.slice(0, 500)).toBe(200);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(['/api/replay', '/api/audio', '/api/audio/{audioId}', '/api/audio/{audioId}/content', '/api/work']),
    );
    for (const heading of ['## Replay', '## Audio', '## Output Flow']) expect(res.body.info.description).toContain(heading);
  });
});
