import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SENTENCE_MAX_CHARS, SENTENCES_MAX_PAGE_SIZE, SENTENCES_PAGE_SIZE_DEFAULT } from '../../../src/domain/limits.ts';
import { fakeTranslate } from '../../../src/model/fake-provider/responder.ts';
import type { Stack } from '../../support/stack.ts';
import { useStack } from '../../support/fixture.ts';
import { balanceOf, newUser, type TestUser } from '../../support/users.ts';
import { emptyWallet, ledgerKinds, sentenceRow, translationCalls } from './support.ts';
import { api, bodyOf, expectProblem, expectStatus, rawHttp } from '../../support/api.ts';

let stack: Stack;
let user: TestUser;
useStack((started) => ({ stack, user } = started));

const post = (text: string, token = user.token, expected5xx?: number[]) =>
  api(stack, { token, expected5xx }).POST('/api/sentences', { body: { original_text: text } });

describe('POST /api/sentences (sync)', () => {
  it('saves, translates into the native language and charges by the sentence formula', async () => {
    const text = `The weather is lovely today ${randomUUID()}`;
    const before = await balanceOf(stack, user);
    const res = await post(`  ${text}  `);
    expectStatus(res, 200);
    expect(res.body.sentence).toEqual({
      id: expect.any(String),
      original_text: text,
      translation: fakeTranslate(text, 'fr'),
      status: 'translated',
      native_language: 'fr',
      created_at: expect.any(String),
    });
    // 0.0012 USD → round to 0.001 → × 3 × 1000 = 3 credits
    expect(await balanceOf(stack, user)).toBe(before - 3);
    expect(await ledgerKinds(stack, user.userId, 'sentence_translation')).toContainEqual({
      idempotency_key: `sentence-translation/${res.body.sentence.id}/attempt-1`,
      amount: -3,
    });
    expect(translationCalls(stack)).toHaveLength(1);
  });

  it('refuses U+0000 and unpaired surrogates with 400, in sync and async mode, saving nothing', async () => {
    for (const text of ['Hello\u0000 world', 'Hello \ud800 world', 'Hello \udc00']) {
      const sync = await post(text);
      expectProblem(sync, 400, 'invalid_request');
      expect(sync.body.errors![0]!.path).toBe('original_text');
      const async = await api(stack, { token: user.token }).POST('/api/sentences', {
        params: { query: { mode: 'async' } },
        headers: { 'x-service-async': '1' },
        body: { original_text: text },
      });
      expectProblem(async, 400, 'invalid_request');
    }
    expect(translationCalls(stack)).toHaveLength(0);
  });

  it(`validates original_text: 1..${SENTENCE_MAX_CHARS} code points after trimming`, async () => {
    expectProblem(await post('   '), 400, 'invalid_request');
    // Raw: a typed client cannot leave the text out or send a number.
    expectProblem(await rawHttp(stack, 'POST', '/api/sentences', { token: user.token, body: {} }), 400, 'invalid_request');
    expectProblem(await rawHttp(stack, 'POST', '/api/sentences', { token: user.token, body: { original_text: 42 } }), 400, 'invalid_request');
    const tooLong = await post('😀'.repeat(SENTENCE_MAX_CHARS + 1));
    expectProblem(tooLong, 400, 'invalid_request');
    expect(tooLong.body.errors![0]!.path).toBe('original_text');
    expect((await post(`${'é'.repeat(SENTENCE_MAX_CHARS - 10)} ${randomUUID().slice(0, 8)}`)).status).toBe(200);
    expect(translationCalls(stack)).toHaveLength(1);
  });

  it('answers 409 duplicate_sentence with the existing id for the same sentence again', async () => {
    const unique = randomUUID();
    const first = await post(`Break a leg ${unique}!`);
    expectStatus(first, 200);
    const again = await post(`  BREAK  a leg ${unique.toUpperCase()}.`);
    expectProblem(again, 409, 'duplicate_sentence');
    expect(again.body.existingId).toBe(first.body.sentence.id);
  });

  it('creates one sentence and one charge when identical posts race', async () => {
    const text = `Race condition ${randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 10 }, () => post(text)));
    const created = results.filter((r) => r.status === 200).map((r) => bodyOf(r, 200));
    expect(created).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) {
      expectProblem(r, 409, 'duplicate_sentence');
      expect(r.body.existingId).toBe(created[0]!.sentence.id);
    }
    expect(translationCalls(stack)).toHaveLength(1);
    const charges = await ledgerKinds(stack, user.userId, 'sentence_translation');
    expect(charges.filter((c) => c.idempotency_key.includes(created[0]!.sentence.id))).toHaveLength(1);
  });

  it.each([
    ['fail', 503, 'service_unavailable'],
    ['malformed', 502, 'provider_output_invalid'],
    ['schema_violation', 502, 'provider_output_invalid'],
    ['privacy_refusal', 503, 'privacy_routing_unavailable'],
  ] as const)('provider %s → %i %s; the sentence stays saved as failed, nothing charged, and a re-post retries it', async (mode, status, code) => {
    const text = `Provider trouble ${mode} ${randomUUID()}`;
    const before = await balanceOf(stack, user);
    stack.fake.setMode(mode);
    const failed = await post(text, user.token, [status]);
    expectProblem(failed, status, code);
    const id = failed.body.sentenceId!;
    expect(await sentenceRow(stack, id)).toMatchObject({ status: 'failed', error_code: code, credits_charged: null });
    expect(await balanceOf(stack, user)).toBe(before);

    const listed = bodyOf(await api(stack, { token: user.token }).GET('/api/sentences', { params: { query: { pageSize: SENTENCES_MAX_PAGE_SIZE } } }), 200);
    expect(listed.items.find((s) => s.id === id)).toMatchObject({ status: 'failed', translation: null });

    stack.fake.setMode('ok');
    const retried = await post(text);
    expectStatus(retried, 200);
    expect(retried.body.sentence).toMatchObject({ id, status: 'translated', translation: fakeTranslate(text, 'fr') });
    expect(await sentenceRow(stack, id)).toMatchObject({ attempt: 2 });
    expect(await balanceOf(stack, user)).toBe(before - 3);
    expectProblem(await post(text), 409, 'duplicate_sentence');
  });

  it('answers 402 before any model call when the balance is zero, saving nothing', async () => {
    const poor = await newUser(stack);
    await emptyWallet(stack, poor.userId);
    expectProblem(await post('No money left', poor.token), 402, 'insufficient_credits');
    expect(translationCalls(stack)).toHaveLength(0);
    expect(bodyOf(await api(stack, { token: poor.token }).GET('/api/sentences'), 200).total).toBe(0);
  });

  it('answers 428 before language setup and 403 to a read-only token', async () => {
    const fresh = await newUser(stack, { languages: null });
    expectProblem(await post('Hello there', fresh.token), 428, 'language_setup_required');
    const readOnly = bodyOf(await api(stack, { cookie: user.cookie }).POST('/api/tokens', { body: { name: 'ro', scope: 'read' } }), 201);
    expectProblem(await post('Hello there', readOnly.token), 403, 'read_only_token');
    expect((await api(stack, { token: readOnly.token }).GET('/api/sentences')).status).toBe(200);
    expect(translationCalls(stack)).toHaveLength(0);
  });
});

describe('GET /api/sentences', () => {
  it(`pages newest first with a total, default ${SENTENCES_PAGE_SIZE_DEFAULT}, maximum ${SENTENCES_MAX_PAGE_SIZE}`, async () => {
    const reader = await newUser(stack);
    stack.fake.setCost('0');
    const size = SENTENCES_PAGE_SIZE_DEFAULT;
    const texts = Array.from({ length: size + 3 }, (_, i) => `Sentence number ${i}`);
    for (const text of texts) expect((await post(text, reader.token)).status).toBe(200);

    const first = bodyOf(await api(stack, { token: reader.token }).GET('/api/sentences'), 200);
    expect(first).toMatchObject({ page: 1, pageSize: size, total: size + 3 });
    expect(first.items.map((s) => s.original_text)).toEqual(texts.slice(3).reverse());
    const second = bodyOf(await api(stack, { token: reader.token }).GET('/api/sentences', { params: { query: { page: 2, pageSize: size } } }), 200);
    expect(second.items.map((s) => s.original_text)).toEqual(texts.slice(0, 3).reverse());
    expect((await api(stack, { token: reader.token }).GET('/api/sentences', { params: { query: { page: 9 } } })).body).toMatchObject({
      items: [],
      total: size + 3,
    });
    expect(
      bodyOf(await api(stack, { token: reader.token }).GET('/api/sentences', { params: { query: { pageSize: SENTENCES_MAX_PAGE_SIZE } } }), 200).items,
    ).toHaveLength(size + 3);

    for (const query of [`pageSize=${SENTENCES_MAX_PAGE_SIZE + 1}`, 'pageSize=0', 'page=0', 'page=abc', 'pageSize=1.5']) {
      expectProblem(await rawHttp(stack, 'GET', `/api/sentences?${query}`, { token: reader.token }), 400, 'invalid_request');
    }
    // Another user's sentences are not listed.
    expect(bodyOf(await api(stack, { token: user.token }).GET('/api/sentences'), 200).items.map((s) => s.original_text)).not.toContain('Sentence number 0');
  });
});

describe('tRPC sentences', () => {
  it('creates and lists over /trpc with the same rules', async () => {
    const trpcUser = await newUser(stack);
    const text = `Over tRPC ${randomUUID()}`;
    const created = await rawHttp(stack, 'POST', '/trpc/sentences.create', { token: trpcUser.token, body: { original_text: text } });
    expect(created.status, created.text).toBe(200);
    expect(created.body.result.data.sentence).toMatchObject({ original_text: text, status: 'translated', translation: fakeTranslate(text, 'fr') });

    const duplicate = await rawHttp(stack, 'POST', '/trpc/sentences.create', { token: trpcUser.token, body: { original_text: text } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.data.problem).toMatchObject({ code: 'duplicate_sentence', existingId: created.body.result.data.sentence.id });

    const listed = await rawHttp(stack, 'GET', `/trpc/sentences.list?input=${encodeURIComponent(JSON.stringify({ page: 1, pageSize: 5 }))}`, {
      token: trpcUser.token,
    });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.result.data).toMatchObject({ page: 1, pageSize: 5, total: 1, items: [{ original_text: text }] });

    const tooBig = await rawHttp(stack, 'GET', `/trpc/sentences.list?input=${encodeURIComponent(JSON.stringify({ pageSize: 101 }))}`, {
      token: trpcUser.token,
    });
    expect(tooBig.status).toBe(400);
  });
});
