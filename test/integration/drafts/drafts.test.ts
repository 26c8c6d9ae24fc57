import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DRAFT_PROMPT_MAX } from '../../../src/domain/limits.ts';
import { insertCard, hoursAgo } from '../replay/cards.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import type { operations } from '../../../clients/rest/schema.d.ts';
import { api, bodyOf, expectProblem, rawHttp } from '../../support/api.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ worker: false });
});
afterEach(() => stack.fake.reset());
afterAll(async () => {
  await stack?.close();
});

type WorkBody = operations['drafts.create']['requestBody']['content']['application/json'];
/** Through the typed client, as a REST client sends it: a prompt alone is a whole request. */
const work = (user: TestUser, body: WorkBody, headers?: { 'idempotency-key': string }, expected5xx?: number[]) =>
  api(stack, { token: user.token, expected5xx }).POST('/api/work', { body, params: { header: headers } });
const balance = async (user: TestUser) => bodyOf(await api(stack, { token: user.token }).GET('/api/credits'), 200).balance;
const workRequests = () => stack.fake.requests.filter((r) => r.body?.response_format?.json_schema?.name === 'work_draft');
const sentInput = (i = -1) =>
  JSON.parse(
    workRequests()
      .at(i)!
      .body.messages.find((m: any) => m.role === 'user').content,
  );
async function cardCount(userId: string) {
  const [row] = await stack.orm.em.fork().execute<{ n: string }[]>(`SELECT count(*) AS n FROM cards WHERE user_id = ?`, [userId]);
  return Number(row!.n);
}

describe('POST /api/work', () => {
  it('drafts English, charges 100 × the provider cost and creates no card', async () => {
    const user = await newUser(stack);
    stack.fake.setCost('0.0012');
    const res = await work(user, { prompt: 'Je voudrais annuler ma réservation', tone: 'formal' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ english: '[en] Je voudrais annuler ma réservation', notes: ['tone: formal'], usedCardIds: [], creditsCharged: 120 });
    expect(await balance(user)).toBe(380);
    expect(sentInput()).toEqual({ prompt: 'Je voudrais annuler ma réservation', tone: 'formal', notesLanguage: 'French', expressions: [] });
    expect(workRequests().at(-1)!.body.provider).toMatchObject({ data_collection: 'deny', zdr: true });
    expect(await cardCount(user.userId)).toBe(0);
    const ledger = bodyOf(await api(stack, { token: user.token }).GET('/api/credits/ledger'), 200).items;
    expect(ledger[0]).toMatchObject({ kind: 'work', amount: -120 });
  });

  it("offers the user's own ready cards with useLibrary and returns only offered ids", async () => {
    const user = await newUser(stack);
    const other = await newUser(stack);
    const older = await insertCard(stack.orm, user.userId, { text: 'call it a day', createdAt: hoursAgo(5) });
    const newer = await insertCard(stack.orm, user.userId, { text: 'wrap things up', correctedText: 'Wrap things up.', createdAt: hoursAgo(1) });
    await insertCard(stack.orm, user.userId, { text: 'still pending', status: 'pending' });
    const foreign = await insertCard(stack.orm, other.userId, { text: 'not mine' });

    const res = await work(user, { prompt: 'Ich möchte Feierabend machen', useLibrary: true });
    expect(res.status, res.text).toBe(200);
    expect(sentInput().expressions).toEqual([
      { cardId: newer, text: 'Wrap things up.' },
      { cardId: older, text: 'call it a day' },
    ]);
    expect(res.body.usedCardIds).toEqual([newer]);
    expect(res.body.notes).toEqual(['tone: neutral']);

    stack.fake.setResponder('work_draft', () => ({ english: 'Let us call it a day.', notes: [], usedCardIds: [foreign, older, older, 'made-up'] }));
    const filtered = await work(user, { prompt: 'On arrête là', useLibrary: true });
    expect(filtered.body.usedCardIds).toEqual([older]);
    expect(await cardCount(user.userId)).toBe(3);

    await work(user, { prompt: 'Sans bibliothèque' });
    expect(sentInput().expressions).toEqual([]);
  });

  it('answers 402 with no credits, before calling the model', async () => {
    const user = await newUser(stack);
    await stack.orm.em.fork().execute(`UPDATE wallets SET balance = 0 WHERE user_id = ?`, [user.userId]);
    const before = workRequests().length;
    expectProblem(await work(user, { prompt: 'hello' }), 402, 'insufficient_credits');
    expect(workRequests().length).toBe(before);
  });

  it('answers 428 until languages are set', async () => {
    const user = await newUser(stack, { languages: null });
    expectProblem(await work(user, { prompt: 'hello' }), 428, 'language_setup_required');
    expect(workRequests()).toHaveLength(0);
  });

  it('maps provider failures to 502/503 and charges nothing', async () => {
    const user = await newUser(stack);
    const cases = [
      ['malformed', 502, 'provider_output_invalid'],
      ['schema_violation', 502, 'provider_output_invalid'],
      ['privacy_refusal', 503, 'privacy_routing_unavailable'],
      ['fail', 503, 'service_unavailable'],
    ] as const;
    for (const [mode, status, code] of cases) {
      stack.fake.setMode(mode);
      expectProblem(await work(user, { prompt: 'hello there' }, undefined, [status]), status, code);
    }
    expect(await balance(user)).toBe(500);
  });

  it('validates the body', async () => {
    const user = await newUser(stack);
    const bad = [
      {},
      { prompt: '' },
      { prompt: '   ' },
      { prompt: 'x'.repeat(DRAFT_PROMPT_MAX + 1) },
      { prompt: 'ok', tone: 'angry' },
      { prompt: 'ok', useLibrary: 'yes' },
      { prompt: 42 },
    ];
    // Raw: the typed client cannot send what the document forbids.
    for (const body of bad) expectProblem(await rawHttp(stack, 'POST', '/api/work', { token: user.token, body }), 400, 'invalid_request');
    expect(workRequests()).toHaveLength(0);
    // The limit counts code points, however many UTF-16 units they take.
    expect((await work(user, { prompt: '😀'.repeat(DRAFT_PROMPT_MAX) })).status).toBe(200);
  });

  it('charges once per Idempotency-Key', async () => {
    const user = await newUser(stack);
    const key = { 'idempotency-key': `work-${user.userId}` };
    const first = await work(user, { prompt: 'one' }, key);
    const second = await work(user, { prompt: 'one' }, key);
    expect(first.body.creditsCharged).toBe(120);
    expect(second.body.creditsCharged).toBe(0);
    expect(await balance(user)).toBe(380);
    expectProblem(await work(user, { prompt: 'one' }, { 'idempotency-key': 'has spaces' }), 400, 'invalid_request');
  });

  it('does not draft again for free under a used Idempotency-Key: same body → first draft, other body → 422', async () => {
    const user = await newUser(stack);
    const key = { 'idempotency-key': `reuse-${user.userId}` };
    const first = await work(user, { prompt: 'first prompt' }, key);
    expect(first.body.creditsCharged).toBe(120);
    const repeat = await work(user, { prompt: 'first prompt' }, key);
    expect(repeat.status).toBe(200);
    expect(repeat.body).toEqual({ ...first.body, creditsCharged: 0 });
    expect(workRequests()).toHaveLength(1);
    expectProblem(await work(user, { prompt: 'a different prompt, for free?' }, key), 422, 'request_id_reused');
    expectProblem(await work(user, { prompt: 'first prompt', tone: 'formal' }, key), 422, 'request_id_reused');
    expect(workRequests()).toHaveLength(1);
    expect(await balance(user)).toBe(380);
    // Another user's key space is separate.
    const other = await newUser(stack);
    expect((await work(other, { prompt: 'a different prompt' }, key)).body.creditsCharged).toBe(120);
  });
});
