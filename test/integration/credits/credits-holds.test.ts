import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MODEL_OUTPUT_TOKEN_CAP, OUTPUT_TOKEN_LIMITS } from '../../../src/domain/model-budget.ts';
import { counterValue as metric } from '../../support/metrics.ts';
import { reserveCredits } from '../../../src/features/credits/holds.ts';
import { charge } from '../../../src/features/credits/wallet.ts';
import { startFakeSpeech, insertSentence, uniqueText, type FakeSpeech } from '../audio/support.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { expectLedgerMatchesBalance } from '../../support/helpers.ts';
import { api, bodyOf, expectProblem, expectStatus, type AnyReply } from '../../support/api.ts';

// Issue 8 §2: a balance check reserved nothing, so with 1 credit left every concurrent unit of
// model work ran and the shortfall was written off. Every paid unit now holds credits before
// its provider call; at 1 credit, 20 at once serve at most one and the rest get 402.

let stack: Stack;
let speech: FakeSpeech;
beforeAll(async () => {
  speech = await startFakeSpeech();
  stack = await startStack({ env: { TTS_BASE_URL: speech.baseUrl, TTS_API_KEY: 'tts-key', TTS_COST_PER_MILLION_CHARS_USD: '1000' } });
});
afterEach(() => stack.fake.reset());
afterAll(async () => {
  await stack?.close();
  await speech?.close();
});

const CONCURRENT = 20;
const callsOf = (task: string) => stack.fake.requests.filter((r) => r.body?.response_format?.json_schema?.name === task);

/** A user whose ledger says 1 credit is left (499 of the free 500 charged honestly). */
async function userWithOneCredit(): Promise<TestUser> {
  const user = await newUser(stack);
  await charge(stack.orm.em.fork(), { userId: user.userId, idempotencyKey: 'spend-499', providerCostUsd: '0.00499', kind: 'work', reason: 'set-up' });
  expect(await expectLedgerMatchesBalance(stack, user.userId)).toBe(1);
  return user;
}

/** One success (the 1 credit serves one unit, never more); every other answer is a 402 `insufficient_credits` problem. */
function expectOneServed(answers: AnyReply[], success: number) {
  const served = answers.filter((a) => a.status === success);
  expect(served.length, answers.map((a) => a.status).join(',')).toBe(1);
  for (const refused of answers.filter((a) => a.status !== success)) expectProblem(refused, 402, 'insufficient_credits');
  return served.length;
}

const heldOf = async (user: TestUser) => bodyOf(await api(stack, { token: user.token }).GET('/api/credits'), 200).held;
const requestDraft = (user: TestUser, prompt: string, { headers, expected5xx }: { headers?: { 'idempotency-key': string }; expected5xx?: number[] } = {}) =>
  api(stack, { token: user.token, expected5xx }).POST('/api/work', { body: { prompt }, params: { header: headers } });

const concurrently = <T>(make: (i: number) => Promise<T>) => Promise.all(Array.from({ length: CONCURRENT }, (_, i) => make(i)));

describe(`at 1 credit, ${CONCURRENT} concurrent units of model work serve at most one`, () => {
  it('Output Flow drafts (POST /api/work)', async () => {
    const user = await userWithOneCredit();
    stack.fake.setLatency(300);
    const answers = await concurrently((i) => requestDraft(user, `Draft number ${i}`));
    expect(callsOf('work_draft')).toHaveLength(expectOneServed(answers, 200));
    expect(await expectLedgerMatchesBalance(stack, user.userId)).toBe(0);
  });

  it('page translations (POST /api/immersive-translate)', async () => {
    const user = await userWithOneCredit();
    stack.fake.setLatency(300);
    const answers = await concurrently((i) =>
      api(stack, { token: user.token }).POST('/api/immersive-translate', {
        body: {
          request_id: `hold-${randomUUID()}`,
          target_language: 'fr',
          source_language: 'en',
          items: [{ id: 'a', text: `Page text ${i} ${randomUUID()}` }],
        },
      }),
    );
    expect(callsOf('translate_batch')).toHaveLength(expectOneServed(answers, 200));
    expect(await expectLedgerMatchesBalance(stack, user.userId)).toBe(0);
  });

  it('sync sentences (POST /api/sentences)', async () => {
    const user = await userWithOneCredit();
    stack.fake.setLatency(300);
    const answers = await concurrently((i) =>
      api(stack, { token: user.token }).POST('/api/sentences', { body: { original_text: `Sync sentence ${i} ${randomUUID()}` } }),
    );
    expect(callsOf('translate_sentence')).toHaveLength(expectOneServed(answers, 200));
    expect(await expectLedgerMatchesBalance(stack, user.userId)).toBe(0);
  });

  it('async sentences (POST /api/sentences?mode=async): refused at once, not failed later', async () => {
    const user = await userWithOneCredit();
    stack.fake.setLatency(300);
    const answers = await concurrently((i) =>
      api(stack, { token: user.token }).POST('/api/sentences', {
        params: { query: { mode: 'async' } },
        headers: { 'x-service-async': '1' },
        body: { original_text: `Async sentence ${i} ${randomUUID()}` },
      }),
    );
    const served = expectOneServed(answers, 202);
    await vi.waitFor(
      async () => {
        const [row] = await stack.orm.em
          .fork()
          .execute<{ n: string }[]>(`SELECT count(*) AS n FROM sentences WHERE user_id = ? AND status = 'pending'`, [user.userId]);
        expect(Number(row!.n)).toBe(0);
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(callsOf('translate_sentence').length).toBeLessThanOrEqual(served);
    expect(await expectLedgerMatchesBalance(stack, user.userId)).toBe(0);
  });

  it('card preparation (activity): one card prepared, the others fail insufficient_credits without a model call', async () => {
    const user = await userWithOneCredit();
    stack.fake.setLatency(300);
    await concurrently(async (i) => {
      const res = await api(stack, { token: user.token }).POST('/api/library', { body: { text: `hold the line ${i} ${randomUUID().slice(0, 8)}` } });
      expectStatus(res, 202);
    });
    const settled = await vi.waitFor(
      async () => {
        const rows = await stack.orm.em
          .fork()
          .execute<{ enrichment_status: string; code: string | null }[]>(
            `SELECT enrichment_status, enrichment_error->>'code' AS code FROM cards WHERE user_id = ?`,
            [user.userId],
          );
        expect(rows).toHaveLength(CONCURRENT);
        expect(rows.filter((r) => r.enrichment_status === 'pending')).toEqual([]);
        return rows;
      },
      { timeout: 45_000, interval: 200 },
    );
    const ready = settled.filter((r) => r.enrichment_status === 'ready').length;
    expect(ready).toBe(1);
    expect(settled.filter((r) => r.enrichment_status === 'failed').map((r) => r.code)).toEqual(Array(CONCURRENT - ready).fill('insufficient_credits'));
    expect(callsOf('capture_preparation')).toHaveLength(ready);
    expect(await expectLedgerMatchesBalance(stack, user.userId)).toBe(0);
  });

  it('paid audio generation (remote speech engine)', async () => {
    const user = await userWithOneCredit();
    const sentenceIds = await concurrently((i) => insertSentence(stack.orm, user.userId, uniqueText(`Speak sentence ${i}`)));
    const before = speech.requests.length;
    const answers = await concurrently((i) => api(stack, { token: user.token }).POST('/api/audio', { body: { sentenceId: sentenceIds[i]! } }));
    const served = expectOneServed(answers, 202);
    await vi.waitFor(
      async () => {
        const [row] = await stack.orm.em
          .fork()
          .execute<{ n: string }[]>(
            `SELECT count(*) AS n FROM audio_clips c JOIN audio_requests r ON r.audio_id = c.id WHERE r.user_id = ? AND c.status = 'pending'`,
            [user.userId],
          );
        expect(Number(row!.n)).toBe(0);
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(speech.requests.length - before).toBe(served);
    expect(await expectLedgerMatchesBalance(stack, user.userId)).toBe(0);
  });
});

describe('what is held', () => {
  it('GET /api/credits shows credits held by a draft in progress; a 402 while they are held says so', async () => {
    const user = await newUser(stack);
    await charge(stack.orm.em.fork(), { userId: user.userId, idempotencyKey: 'spend-490', providerCostUsd: '0.0049', kind: 'work', reason: 'set-up' });
    stack.fake.setLatency(1_000);
    const first = requestDraft(user, 'A slow draft');
    await vi.waitFor(async () => expect(await heldOf(user)).toBe(10), { timeout: 5_000, interval: 50 });
    const refused = await requestDraft(user, 'Another draft');
    expectProblem(refused, 402, 'insufficient_credits');
    expect(refused.body).toMatchObject({ balance: 10, held: 10 });
    expect(refused.body.detail).toMatch(/held by work in progress/);
    expect((await first).status).toBe(200);
    expect(await heldOf(user)).toBe(0);
    const spent = await requestDraft(user, 'Nothing left');
    expect(spent.body).toMatchObject({ code: 'insufficient_credits', balance: 0, held: 0 });
  });

  it('holds a draft for its maximum cost, not more than is available, and frees it when the call fails', async () => {
    const user = await newUser(stack);
    stack.fake.setLatency(500);
    const draft = requestDraft(user, 'Bounded by max_tokens');
    const held = await vi.waitFor(
      async () => {
        const value = await heldOf(user);
        expect(value).toBeGreaterThan(0);
        return value;
      },
      { timeout: 5_000, interval: 50 },
    );
    // 4,096 answer tokens at 0.6 USD per million alone are 0.0024576 USD → 246 credits; the input adds a little.
    expect(held).toBeGreaterThanOrEqual(246);
    expect(held).toBeLessThan(400);
    await draft;
    stack.fake.setMode('fail');
    expect((await requestDraft(user, 'Fails', { expected5xx: [503] })).status).toBe(503);
    expect(await heldOf(user)).toBe(0);
  });
});

describe('holds lapse and are keyed by the unit of work', () => {
  it('a hold left by a crashed process lapses: it no longer blocks, and its call is counted as lost', async () => {
    const user = await userWithOneCredit();
    const lost = await metric('lcs_provider_unbilled_calls_total', { task: 'work_draft', reason: 'lost' });
    await stack.orm.em.fork().execute(
      `INSERT INTO credit_holds (user_id, hold_key, task, credits, call_in_flight, expires_at)
       VALUES (?, 'work/crashed', 'work_draft', 1, true, now() - interval '1 second')`,
      [user.userId],
    );
    expect(await heldOf(user)).toBe(0);
    expect((await requestDraft(user, 'After a crash')).status).toBe(200);
    expect(await metric('lcs_provider_unbilled_calls_total', { task: 'work_draft', reason: 'lost' })).toBe(lost + 1);
    const [row] = await stack.orm.em.fork().execute<{ n: string }[]>(`SELECT count(*) AS n FROM credit_holds WHERE user_id = ?`, [user.userId]);
    expect(Number(row!.n)).toBe(0);
  });

  it("a live hold of another unit blocks; the same unit retried reuses its hold and counts the earlier attempt's call as lost", async () => {
    const user = await userWithOneCredit();
    const unit = { userId: user.userId, key: `card-enrichment/${randomUUID()}/attempt-1`, task: 'capture_preparation', maxCredits: 128, lifetimeMs: 60_000 };
    const scheduledAt = Date.now();
    const first = await reserveCredits(stack.orm.em.fork(), { ...unit, callAttemptAt: scheduledAt });
    expect(first).toEqual({ credits: 1, lostCalls: [] });
    await expect(reserveCredits(stack.orm.em.fork(), { ...unit, key: 'another-unit', callAttemptAt: scheduledAt })).rejects.toMatchObject({
      code: 'insufficient_credits',
      reason: 'held',
    });
    // The same attempt renewing its hold is not a lost call; a later one (a retry, or a local activity run again) is.
    expect(await reserveCredits(stack.orm.em.fork(), { ...unit, callAttemptAt: scheduledAt })).toEqual({ credits: 1, lostCalls: [] });
    expect(await reserveCredits(stack.orm.em.fork(), { ...unit, callAttemptAt: scheduledAt + 10_000 })).toEqual({
      credits: 1,
      lostCalls: ['capture_preparation'],
    });
    // The charge of the unit settles its hold; with the balance spent, nothing more is held.
    await charge(stack.orm.em.fork(), {
      userId: user.userId,
      idempotencyKey: unit.key,
      providerCostUsd: '0.00001',
      kind: 'capture_preparation',
      reason: 'settles',
    });
    expect(await heldOf(user)).toBe(0);
    await expect(reserveCredits(stack.orm.em.fork(), { ...unit, key: 'another-unit' })).rejects.toMatchObject({ reason: 'empty' });
  });

  it("the charge for work kept from a failed unit (its own key) settles the unit's hold in the same transaction", async () => {
    const user = await newUser(stack);
    const [requestId, claimToken] = [randomUUID(), randomUUID()];
    const unit = { userId: user.userId, key: `page-translation/${requestId}/${claimToken}`, task: 'translate_batch', maxCredits: 100, lifetimeMs: 60_000 };
    await reserveCredits(stack.orm.em.fork(), { ...unit, callAttemptAt: 0 });
    expect(await heldOf(user)).toBe(100);
    const kept = await charge(stack.orm.em.fork(), {
      userId: user.userId,
      idempotencyKey: `page-translation/${requestId}/kept/${claimToken}`,
      providerCostUsd: '0.0009',
      kind: 'page_translation',
      reason: 'kept',
      settlesHold: unit.key,
    });
    expect(kept.debited).toBe(3);
    expect(await heldOf(user)).toBe(0); // neither left dangling nor counted beside the charge
    expect(await expectLedgerMatchesBalance(stack, user.userId)).toBe(497);
  });

  it('a hold taken at request time (async sentence, audio) is reused by the call, which is not a lost one', async () => {
    const user = await newUser(stack);
    const ahead = { userId: user.userId, key: `sentence-translation/${randomUUID()}/attempt-1`, task: 'translate_sentence', maxCredits: 3, lifetimeMs: 60_000 };
    expect(await reserveCredits(stack.orm.em.fork(), ahead)).toEqual({ credits: 3, lostCalls: [] });
    expect(await reserveCredits(stack.orm.em.fork(), { ...ahead, callAttemptAt: Date.now() })).toEqual({ credits: 3, lostCalls: [] });
    expect(await heldOf(user)).toBe(3);
  });
});

describe('every model request sets max_tokens', () => {
  it('sized per kind of work: preparation and drafts fixed, translations by their text', async () => {
    const user = await newUser(stack);
    await requestDraft(user, 'Limits');
    await api(stack, { token: user.token }).POST('/api/sentences', { body: { original_text: 'Short sentence here.' } });
    await api(stack, { token: user.token }).POST('/api/immersive-translate', {
      body: { request_id: `max-${randomUUID()}`, target_language: 'fr', source_language: 'en', items: [{ id: 'a', text: `Item ${randomUUID()}` }] },
    });
    const card = await api(stack, { token: user.token }).POST('/api/library', { body: { text: `max tokens ${randomUUID().slice(0, 8)}` } });
    expectStatus(card, 202);
    await vi.waitFor(() => expect(callsOf('capture_preparation')).toHaveLength(1), { timeout: 30_000, interval: 100 });

    const limits = Object.fromEntries(stack.fake.requests.map((r) => [r.body.response_format.json_schema.name, r.body.max_tokens]));
    expect(limits).toEqual({
      work_draft: OUTPUT_TOKEN_LIMITS.work_draft,
      capture_preparation: OUTPUT_TOKEN_LIMITS.capture_preparation,
      translate_sentence: 256 + 4 * 'Short sentence here.'.length + 32,
      translate_batch: expect.any(Number),
    });
    expect(limits.translate_batch).toBeGreaterThan(256);
    expect(limits.translate_batch).toBeLessThanOrEqual(MODEL_OUTPUT_TOKEN_CAP);
  });
});

describe('provider spend nobody paid for', () => {
  it('a concurrent twin draft under the same Idempotency-Key: one charge, the other call counted as duplicate spend', async () => {
    const user = await newUser(stack);
    const duplicates = await metric('lcs_provider_unbilled_calls_total', { task: 'work_draft', reason: 'duplicate' });
    const cost = await metric('lcs_provider_unbilled_cost_usd_total', { task: 'work_draft', reason: 'duplicate' });
    stack.fake.setLatency(300);
    const key = { 'idempotency-key': `twin-${randomUUID()}` };
    const twins = await Promise.all([0, 1].map(() => requestDraft(user, 'Twins', { headers: key })));
    expect(twins.map((t) => t.status)).toEqual([200, 200]);
    expect(twins.map((t) => t.body.creditsCharged).sort()).toEqual([0, 120]);
    expect(callsOf('work_draft')).toHaveLength(2);
    expect(await metric('lcs_provider_unbilled_calls_total', { task: 'work_draft', reason: 'duplicate' })).toBe(duplicates + 1);
    expect(await metric('lcs_provider_unbilled_cost_usd_total', { task: 'work_draft', reason: 'duplicate' })).toBeCloseTo(cost + 0.0012, 10);
    expect(await expectLedgerMatchesBalance(stack, user.userId)).toBe(380);
  });
});
