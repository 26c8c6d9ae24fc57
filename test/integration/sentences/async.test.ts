import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { SENTENCES_MAX_PAGE_SIZE } from '../../../src/domain/limits.ts';
import { fakeTranslate } from '../../../src/model/fake-provider/responder.ts';
import { setPlan } from '../../../src/features/credits/wallet.ts';
import type { Stack } from '../../support/stack.ts';
import { useStack } from '../../support/fixture.ts';
import { balanceOf, newUser, type TestUser } from '../../support/users.ts';
import { asyncHeaders, emptyWallet, sentenceRow, translationCalls, waitForSettled } from './support.ts';
import { api, bodyOf, expectProblem, expectStatus, rawHttp } from '../../support/api.ts';

let stack: Stack;
let user: TestUser;
useStack((started) => ({ stack, user } = started));

const postAsync = (text: string, token = user.token) =>
  api(stack, { token }).POST('/api/sentences', { params: { query: { mode: 'async' } }, body: { original_text: text }, headers: asyncHeaders });

describe('POST /api/sentences?mode=async with X-Service-Async: 1', () => {
  it('answers 202 pending at once, then the workflow sentence-translation/<id> translates and charges', async () => {
    const text = `Background translation ${randomUUID()}`;
    const before = await balanceOf(stack, user);
    const res = await postAsync(text);
    expectStatus(res, 202);
    expect(res.body.sentence).toMatchObject({ original_text: text, translation: null, status: 'pending', native_language: 'fr' });
    const id = res.body.sentence.id;

    expect(await waitForSettled(stack, id)).toMatchObject({ status: 'translated', credits_charged: 3 });
    const listed = bodyOf(await api(stack, { token: user.token }).GET('/api/sentences'), 200);
    expect(listed.items.find((s) => s.id === id)).toMatchObject({ status: 'translated', translation: fakeTranslate(text, 'fr') });
    expect(await balanceOf(stack, user)).toBe(before - 3);

    const handle = stack.temporal.workflow.getHandle(`sentence-translation/${id}`);
    await handle.result(); // the row is committed by the activity, just before the workflow completes
    expect((await handle.describe()).status.name).toBe('COMPLETED');
    // Temporal's history holds ids, never the sentence.
    const history = JSON.stringify(await handle.fetchHistory());
    expect(history).not.toContain(text.split(' ').at(-1));
  });

  it('is sync unless both the query and the header ask for async', async () => {
    const onlyQuery = await api(stack, { token: user.token }).POST('/api/sentences', {
      params: { query: { mode: 'async' } },
      body: { original_text: `Only query ${randomUUID()}` },
    });
    expectStatus(onlyQuery, 200);
    expect(onlyQuery.body.sentence.status).toBe('translated');
    const onlyHeader = await api(stack, { token: user.token }).POST('/api/sentences', {
      body: { original_text: `Only header ${randomUUID()}` },
      headers: asyncHeaders,
    });
    expect(onlyHeader.status).toBe(200);
    // Raw: a typed client knows only the modes the document lists.
    expectProblem(await rawHttp(stack, 'POST', '/api/sentences?mode=later', { token: user.token, body: { original_text: 'x y' } }), 400, 'invalid_request');
  });

  it('marks the sentence failed without charging when the provider output is invalid, and a re-post retries', async () => {
    const text = `Async failure ${randomUUID()}`;
    const before = await balanceOf(stack, user);
    stack.fake.setMode('schema_violation');
    const res = await postAsync(text);
    expectStatus(res, 202);
    const id = res.body.sentence.id;
    expect(await waitForSettled(stack, id)).toMatchObject({ status: 'failed', error_code: 'provider_output_invalid' });
    expect(translationCalls(stack)).toHaveLength(2); // repaired once by the model client, then final: the activity does not retry it
    expect(await balanceOf(stack, user)).toBe(before);
    const handle = stack.temporal.workflow.getHandle(`sentence-translation/${id}`);
    await vi.waitFor(async () => expect((await handle.describe()).status.name).toBe('FAILED'), { timeout: 10_000 });

    stack.fake.setMode('ok');
    const retry = await postAsync(text);
    expectStatus(retry, 202);
    expect(retry.body.sentence).toMatchObject({ id, status: 'pending' });
    expect(await waitForSettled(stack, id)).toMatchObject({ status: 'translated', attempt: 2, credits_charged: 3 });
  });

  it('retries a transient provider failure inside the workflow', async () => {
    stack.fake.setMode('fail', { status: 503 });
    const res = await postAsync(`Transient ${randomUUID()}`);
    await vi.waitFor(() => expect(translationCalls(stack).length).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
    stack.fake.setMode('ok');
    expect(await waitForSettled(stack, bodyOf(res, 202).sentence.id)).toMatchObject({ status: 'translated' });
  });

  it('answers 402 and 409 in async mode too', async () => {
    const text = `Async duplicate ${randomUUID()}`;
    const first = await postAsync(text);
    expectStatus(first, 202);
    const again = await postAsync(text);
    expectProblem(again, 409, 'duplicate_sentence');
    expect(again.body.existingId).toBe(first.body.sentence.id);

    const poor = await newUser(stack);
    await emptyWallet(stack, poor.userId);
    expectProblem(await postAsync('Nothing left', poor.token), 402, 'insufficient_credits');
  });

  it('survives a stopped worker: the translation runs once a worker is back', async () => {
    await stack.stopWorker();
    let restarted = false;
    try {
      const res = await postAsync(`While the worker is down ${randomUUID()}`);
      expectStatus(res, 202);
      expect(await sentenceRow(stack, res.body.sentence.id)).toMatchObject({ status: 'pending' });
      await stack.startWorker();
      restarted = true;
      expect(await waitForSettled(stack, res.body.sentence.id)).toMatchObject({ status: 'translated' });
    } finally {
      if (!restarted) await stack.startWorker();
    }
  });
});

const BATCH = 250;

describe('batch upload', () => {
  // 250: far more than the worker runs at once, so most wait their turn; 1,000 took a minute of CI and showed nothing more.
  it('accepts 250 async posts in a row and translates every one of them', async () => {
    const uploader = await newUser(stack);
    await setPlan(stack.context(), uploader.userId, 'paid'); // 250 × 3 credits > the free 500
    const started = performance.now();
    const ids: string[] = [];
    const texts = Array.from({ length: BATCH }, (_, i) => `Batch sentence ${i} ${randomUUID().slice(0, 8)}`);
    const concurrency = 10;
    for (let i = 0; i < texts.length; i += concurrency) {
      const answers = await Promise.all(texts.slice(i, i + concurrency).map((text) => postAsync(text, uploader.token)));
      for (const answer of answers) {
        expectStatus(answer, 202);
        ids.push(answer.body.sentence.id);
      }
    }
    const accepted = performance.now();
    await vi.waitFor(
      async () => {
        const [counts] = await stack.orm.em.fork().execute<{ pending: number; translated: number }[]>(
          `SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending, count(*) FILTER (WHERE status = 'translated')::int AS translated
         FROM sentences WHERE user_id = ?`,
          [uploader.userId],
        );
        expect(counts).toEqual({ pending: 0, translated: BATCH });
      },
      { timeout: 150_000, interval: 500 },
    );
    const done = performance.now();
    console.log(`${BATCH} async sentences: accepted in ${Math.round(accepted - started)} ms, all translated after ${Math.round(done - started)} ms`);
    expect(new Set(ids).size).toBe(BATCH);
    const listed = bodyOf(await api(stack, { token: uploader.token }).GET('/api/sentences', { params: { query: { pageSize: SENTENCES_MAX_PAGE_SIZE } } }), 200);
    expect(listed.total).toBe(BATCH);
    expect(await balanceOf(stack, uploader)).toBe(5000 - 3 * BATCH);
  }, 180_000);
});

describe('tRPC sentences.create in async mode', () => {
  it('answers pending and translates in the background', async () => {
    const res = await rawHttp(stack, 'POST', '/trpc/sentences.create', {
      token: user.token,
      body: { original_text: `tRPC async ${randomUUID()}`, mode: 'async' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.result.data.sentence.status).toBe('pending');
    expect(await waitForSettled(stack, res.body.result.data.sentence.id)).toMatchObject({ status: 'translated' });
  });
});
