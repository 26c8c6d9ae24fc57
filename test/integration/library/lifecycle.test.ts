import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CAPTURE_TEXT_MAX, LIST_LIMIT_MAX } from '../../../src/domain/limits.ts';
import { kindKey, userIdKey } from '../../../src/temporal/search-attributes.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { capture, preparationCharges, waitForStatus } from './helpers.ts';
import { api, bodyOf, expectProblem, expectStatus, rawHttp } from '../../support/api.ts';

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
}); // 1 credit per preparation

describe('POST /api/library', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await newUser(stack);
  });

  it('answers 202 with a pending card that is already in the learning queue, then prepares it', async () => {
    const before = Date.now();
    const card = await capture(stack, user, '  Break   a leg!  ');
    expect(card).toEqual({
      cardId: expect.any(String),
      text: 'Break a leg!',
      enrichmentStatus: 'pending',
      createdAt: expect.any(String),
      enrichment: null,
      metCount: 0,
      lastMetAt: null,
    });

    const [schedule] = await stack.orm.em
      .fork()
      .execute<{ due: Date; reps: number; state: string }[]>(`SELECT due, reps, state FROM card_schedules WHERE card_id = ?`, [card.cardId]);
    expect(schedule).toMatchObject({ reps: 0, state: 'new' });
    expect(new Date(schedule!.due).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(new Date(schedule!.due).getTime()).toBeLessThanOrEqual(Date.now());

    const ready = await waitForStatus(stack, user, card.cardId, 'ready');
    expect(ready.enrichment).toEqual({
      translation: '[fr] Break a leg!',
      correctedText: null,
      correctionNote: null,
      usage: { register: 'neutral', guidance: expect.any(String), examples: [expect.any(String)] },
      focuses: [{ kind: 'meaning', note: expect.any(String) }],
    });
    expect(ready.scheduling).toMatchObject({ state: 'new', reps: 0, lapses: 0, due: expect.any(String) });
    expect(await preparationCharges(stack, user.userId)).toEqual([
      { idempotency_key: `card-enrichment/${card.cardId}/attempt-1`, amount: -1, ref: card.cardId },
    ]);
  });

  it('reuses the card for the same expression (normalised) and never creates a second one', async () => {
    const first = await capture(stack, user, 'It’s raining cats and dogs.');
    const again = await api(stack, { token: user.token }).POST('/api/library', { body: { text: "it's RAINING  cats and dogs" } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ card: expect.objectContaining({ cardId: first.cardId, text: 'It’s raining cats and dogs.' }), reused: true });
    const [{ count }] = (await stack.orm.em
      .fork()
      .execute<{ count: string }[]>(`SELECT count(*) FROM cards WHERE user_id = ? AND normalised_key = ?`, [user.userId, "it's raining cats and dogs"])) as any;
    expect(Number(count)).toBe(1);
  });

  it('quietly corrects a high-confidence surface error', async () => {
    const card = await capture(stack, user, 'I recieve it');
    const ready = await waitForStatus(stack, user, card.cardId, 'ready');
    expect(ready.enrichment).toMatchObject({ correctedText: 'I receive it', correctionNote: expect.any(String) });
    expect(ready.text).toBe('I recieve it');
  });

  it('runs preparation as workflow card-enrichment/<cardId> with ids only, findable by search attributes', async () => {
    const card = await capture(stack, user, 'a secret expression');
    await waitForStatus(stack, user, card.cardId, 'ready');
    const handle = stack.temporal.workflow.getHandle(`card-enrichment/${card.cardId}`);
    await handle.result();
    const description = await handle.describe();
    expect(description.status.name).toBe('COMPLETED');
    expect(description.typedSearchAttributes.get(userIdKey)).toBe(user.userId);
    expect(description.typedSearchAttributes.get(kindKey)).toBe('card-enrichment');
    // The history's payloads, decoded (its JSON gives their bytes in base64): they name the card, never its text.
    const events = JSON.stringify(await handle.fetchHistory());
    const payloads = [...events.matchAll(/"data":"([A-Za-z0-9+/=]*)"/g)].map(([, data]) => Buffer.from(data!, 'base64').toString('utf8'));
    expect(payloads).toContain(JSON.stringify({ cardId: card.cardId, attempt: 1, preparesLocally: true }));
    expect(payloads.join('\n')).not.toContain('secret expression');
    // Started with preparesLocally: no patch marker, no TemporalChangeVersion upsert (two events fewer for the dev server).
    expect(payloads.join('\n')).not.toContain('card-preparation-local-activity');
    expect(events).not.toContain('EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES');
    // Operators find a user's workflows by search attributes.
    const found: string[] = [];
    for await (const wf of stack.temporal.workflow.list({ query: `LcsUserId = '${user.userId}' AND LcsKind = 'card-enrichment'` })) found.push(wf.workflowId);
    expect(found).toContain(`card-enrichment/${card.cardId}`);
  });

  it('validates the text: 400 for empty, too long, letterless, missing or wrong type', async () => {
    // Raw: a typed client cannot leave the text out or send a number.
    for (const body of [{ text: '   ' }, { text: 'a'.repeat(CAPTURE_TEXT_MAX + 1) }, { text: '12345 !!' }, {}, { text: 42 }]) {
      const res = await rawHttp(stack, 'POST', '/api/library', { token: user.token, body });
      expectProblem(res, 400, 'invalid_request');
      expect(res.body.errors.length).toBeGreaterThan(0);
    }
    // The most code points of astral letters is fine (characters, not UTF-16 units).
    await capture(stack, user, '𝒜'.repeat(CAPTURE_TEXT_MAX));
  });

  it('refuses text PostgreSQL cannot store (U+0000, unpaired surrogates) with 400, not 500, saving nothing', async () => {
    for (const text of ['break\u0000 a leg', 'break a \ud800leg']) {
      const res = await api(stack, { token: user.token }).POST('/api/library', { body: { text } });
      expectProblem(res, 400, 'invalid_request');
      expect(res.body.errors).toEqual([{ path: 'text', message: expect.any(String) }]);
    }
    // Unknown fields are ignored, whatever they hold (raw: a typed client cannot send one).
    await capture(stack, user, 'a perfectly fine capture', 202);
    expect((await rawHttp(stack, 'POST', '/api/library', { token: user.token, body: { text: 'another fine capture', note: '\u0000' } })).status).toBe(202);
  });

  it('answers 428 before the languages are set, and saves nothing', async () => {
    const fresh = await newUser(stack, { languages: null });
    expectProblem(await api(stack, { token: fresh.token }).POST('/api/library', { body: { text: 'hello there' } }), 428, 'language_setup_required');
    const list = await api(stack, { token: fresh.token }).GET('/api/library');
    expect(list.body).toEqual({ items: [], nextCursor: null });
  });

  it('refuses unauthenticated and read-only writes', async () => {
    expectProblem(await api(stack).POST('/api/library', { body: { text: 'hello' } }), 401, 'unauthenticated');
    const read = bodyOf(await api(stack, { cookie: user.cookie }).POST('/api/tokens', { body: { name: 'ro', scope: 'read' } }), 201);
    expectProblem(await api(stack, { token: read.token }).POST('/api/library', { body: { text: 'hello' } }), 403, 'read_only_token');
    expect((await api(stack, { token: read.token }).GET('/api/library')).status).toBe(200);
  });
});

describe('GET /api/library', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await newUser(stack);
  });

  it('lists newest first with enrichmentStatus on every item, paginated by an opaque cursor', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await capture(stack, user, `page item ${i}`)).cardId);
    const seen: string[] = [];
    const page = (cursor: string | null) =>
      api(stack, { token: user.token }).GET('/api/library', { params: { query: { limit: 2, ...(cursor ? { cursor } : {}) } } });
    let cursor: string | null = null;
    do {
      const res = await page(cursor);
      expectStatus(res, 200);
      expect(res.body.items.length).toBeLessThanOrEqual(2);
      for (const item of res.body.items) expect(['pending', 'ready', 'failed']).toContain(item.enrichmentStatus);
      seen.push(...res.body.items.map((i) => i.cardId));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
  });

  it('searches text and translation, case- and accent-insensitively', async () => {
    const cafe = await capture(stack, user, 'Café au lait');
    await capture(stack, user, 'something else');
    await waitForStatus(stack, user, cafe.cardId, 'ready');
    for (const query of ['CAFE', 'café', 'AU LAIT', '[fr] cafe']) {
      const res = bodyOf(await api(stack, { token: user.token }).GET('/api/library', { params: { query: { query } } }), 200);
      expect(
        res.items.map((i) => i.cardId),
        query,
      ).toEqual([cafe.cardId]);
    }
    const wildcard = bodyOf(await api(stack, { token: user.token }).GET('/api/library', { params: { query: { query: '%' } } }), 200);
    expect(wildcard.items).toEqual([]);
    expectProblem(await api(stack, { token: user.token }).GET('/api/library', { params: { query: { query: 'caf\u0000e' } } }), 400, 'invalid_request');
  });

  it('takes LIKE wildcards literally even when they arrive in forms that fold to them (％ ＿ ＼)', async () => {
    const searcher = await newUser(stack);
    const percent = await capture(stack, searcher, 'a 100% sure thing');
    const underscore = await capture(stack, searcher, 'snake_case names');
    const backslash = await capture(stack, searcher, 'back\\slash path');
    await capture(stack, searcher, 'plain words only');
    const search = async (query: string) =>
      bodyOf(await api(stack, { token: searcher.token }).GET('/api/library', { params: { query: { query } } }), 200).items.map((i) => i.cardId);
    // ％ folds to % (and ﹪ too); escaping before folding let it through as a wildcard matching every card.
    expect(await search('％')).toEqual([percent.cardId]);
    expect(await search('100﹪ SURE')).toEqual([percent.cardId]);
    expect(await search('＿')).toEqual([underscore.cardId]);
    expect(await search('snake＿case')).toEqual([underscore.cardId]);
    expect(await search('e＿n')).toEqual([]); // a wildcard _ would match "case names"
    expect(await search('back＼slash')).toEqual([backslash.cardId]);
    expect(await search('＼')).toEqual([backslash.cardId]);
  });

  it('rejects a bad cursor or limit with 400', async () => {
    expectProblem(await api(stack, { token: user.token }).GET('/api/library', { params: { query: { cursor: 'not-a-cursor' } } }), 400, 'invalid_request');
    // Of the cursor's shape but far beyond year 9999: the first page, not a database error.
    const farFuture = await api(stack, { token: user.token }).GET('/api/library', { params: { query: { cursor: '_'.repeat(32) } } });
    expect(farFuture.status, farFuture.text).toBe(200);
    expectProblem(await api(stack, { token: user.token }).GET('/api/library', { params: { query: { limit: LIST_LIMIT_MAX + 1 } } }), 400, 'invalid_request');
    expectProblem(await api(stack, { token: user.token }).GET('/api/library', { params: { query: { limit: 0 } } }), 400, 'invalid_request');
  });

  it('hides other users’ cards (404) and rejects malformed ids (400)', async () => {
    const mine = await capture(stack, user, 'my own card');
    const other = await newUser(stack);
    expectProblem(await api(stack, { token: other.token }).GET('/api/library/{cardId}', { params: { path: { cardId: mine.cardId } } }), 404, 'not_found');
    expectProblem(await api(stack, { token: other.token }).DELETE('/api/library', { params: { query: { cardId: mine.cardId } } }), 404, 'not_found');
    expectProblem(
      await api(stack, { token: other.token }).PATCH('/api/library', { body: { cardId: mine.cardId, action: 'refresh_enrichment' } }),
      404,
      'not_found',
    );
    expect(bodyOf(await api(stack, { token: other.token }).GET('/api/library'), 200).items).toEqual([]);
    expectProblem(await api(stack, { token: user.token }).GET('/api/library/{cardId}', { params: { path: { cardId: 'not-a-uuid' } } }), 400, 'invalid_request');
  });
});

describe('PATCH and DELETE /api/library', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await newUser(stack);
  });

  it('refuses to refresh a ready card (409) and unknown actions (400)', async () => {
    const card = await capture(stack, user, 'refresh me not');
    await waitForStatus(stack, user, card.cardId, 'ready');
    expectProblem(
      await api(stack, { token: user.token }).PATCH('/api/library', { body: { cardId: card.cardId, action: 'refresh_enrichment' } }),
      409,
      'conflict',
    );
    // Raw: a typed client knows only the actions the document lists.
    expectProblem(
      await rawHttp(stack, 'PATCH', '/api/library', { token: user.token, body: { cardId: card.cardId, action: 'explode' } }),
      400,
      'invalid_request',
    );
  });

  it('deletes by query or JSON body; the card and its scheduling are gone; recapture makes a fresh card', async () => {
    const a = await capture(stack, user, 'delete me by query');
    const b = await capture(stack, user, 'delete me by body');
    await waitForStatus(stack, user, a.cardId, 'ready');
    const byQuery = await api(stack, { token: user.token }).DELETE('/api/library', { params: { query: { cardId: a.cardId } } });
    expect(byQuery.status, byQuery.text).toBe(204);
    const byBody = await api(stack, { token: user.token }).DELETE('/api/library', { body: { cardId: b.cardId } });
    expect(byBody.status, byBody.text).toBe(204);
    expectProblem(await api(stack, { token: user.token }).GET('/api/library/{cardId}', { params: { path: { cardId: a.cardId } } }), 404, 'not_found');
    expectProblem(await api(stack, { token: user.token }).DELETE('/api/library', { params: { query: { cardId: a.cardId } } }), 404, 'not_found');
    const [{ count }] = await stack.orm.em.fork().execute<any[]>(`SELECT count(*) FROM card_schedules WHERE card_id IN (?, ?)`, [a.cardId, b.cardId]);
    expect(Number(count)).toBe(0);

    const again = await capture(stack, user, 'Delete me by query.');
    expect(again.cardId).not.toBe(a.cardId);
    await waitForStatus(stack, user, again.cardId, 'ready');
  });

  it('400 without a cardId', async () => {
    expectProblem(await api(stack, { token: user.token }).DELETE('/api/library'), 400, 'invalid_request');
    expectProblem(await api(stack, { token: user.token }).DELETE('/api/library', { params: { query: { cardId: 'nope' } } }), 400, 'invalid_request');
  });
});

describe('API reference', () => {
  it('documents the library routes in the OpenAPI document', async () => {
    const res = await rawHttp(stack, 'GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths['/api/library'])).toEqual(expect.arrayContaining(['post', 'get', 'patch', 'delete']));
    expect(res.body.paths['/api/library/{cardId}'].get).toBeDefined();
    expect(res.body.info.description).toContain('## Library (cards)');
  });
});
