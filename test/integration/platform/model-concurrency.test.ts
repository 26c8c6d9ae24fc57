import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it, vi } from 'vitest';
import { z } from 'zod';
import { createModelClient } from '../../../src/model/model-client.ts';
import { modelSlots } from '../../../src/services/model-slots.ts';
import { useStack } from '../../support/fixture.ts';
import { sql } from '../../support/helpers.ts';
import { spawnWorkerProcess, type ServiceProcess } from '../../support/processes.ts';
import type { Stack } from '../../support/stack.ts';
import type { TestUser } from '../../support/users.ts';
import { asyncHeaders } from '../sentences/support.ts';
import { counterValue } from '../../support/metrics.ts';
import { BREAKER_DEFAULTS } from '../../../src/domain/circuit-breaker.ts';

// MODEL_MAX_CONCURRENCY (src/services/model-slots.ts) against the real fake provider, which counts
// the chat completions it is answering at once (`mostInFlight`).
const CAP = 2;
let stack: Stack;
let user: TestUser;
useStack((started) => ({ stack, user } = started), {
  breaker: true,
  // Probes every second or so; a retry timer, were one used, would wait 5 s and more. An outage is waited out for ten minutes,
  // as in production (the suite's 3 s would end an attempt's wait for the breaker before the provider is back).
  env: {
    MODEL_MAX_CONCURRENCY: String(CAP),
    MODEL_SLOT_WAIT_MS: '400',
    PROVIDER_BREAKER_OPEN_MS: '1000',
    PROVIDER_WAIT_MAX_DELAY_MS: '120000',
    PROVIDER_WAIT_WINDOW_MS: '600000',
  },
  fakeCost: '0.00001', // one credit a unit: the free plan pays for every test here
});

async function call(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${stack.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

/** A second worker, in a process of its own, on this file's task queue and cap. */
function spawnWorker(): Promise<ServiceProcess> {
  const infra = inject('infra');
  return spawnWorkerProcess({
    DATABASE_URL: infra.databaseUrl,
    TEMPORAL_ADDRESS: infra.temporalAddress,
    TEMPORAL_TASK_QUEUE: stack.config.temporal.taskQueue,
    WORKFLOW_BUNDLE_PATH: infra.workflowBundlePath,
    OPENROUTER_BASE_URL: stack.fake.baseUrl,
    OPENROUTER_API_KEY: 'test-key',
    MODEL_MAX_CONCURRENCY: String(CAP),
    RATE_LIMIT_MAX: '100000',
    RATE_LIMIT_MODEL_MAX: '100000',
    LOG_LEVEL: 'silent',
  });
}

const cardStates = (ids: string[]) => sql<{ id: string; enrichment_status: string }>(stack, `SELECT id, enrichment_status FROM cards WHERE id IN (?)`, [ids]);
const chargesOf = (refs: string[], kind: string) =>
  sql<{ ref: string; n: number }>(stack, `SELECT ref, count(*)::int AS n FROM ledger_entries WHERE kind = ? AND ref IN (?) GROUP BY ref`, [kind, refs]);

async function capture(text: string): Promise<string> {
  const res = await call('/api/library', { text });
  expect([200, 202], JSON.stringify(res.body)).toContain(res.status);
  return res.body.card.cardId;
}

describe('MODEL_MAX_CONCURRENCY', () => {
  it('holds across the API and two worker processes: the most calls in flight is the cap; background work all ends, charged once each', async () => {
    const other = await spawnWorker();
    try {
      stack.fake.setLatencyRange(30, 90);
      const tag = randomUUID().slice(0, 8);
      const imported = await call('/api/library/imports', {
        expressions: Array.from({ length: 12 }, (_, i) => `capped import ${tag} ${i}`),
        source: 'cap.txt',
      });
      expect(imported.status, JSON.stringify(imported.body)).toBe(202);
      const [captured, sentences, sync] = await Promise.all([
        Promise.all(Array.from({ length: 6 }, (_, i) => capture(`capped capture ${tag} ${i}`))),
        Promise.all(
          Array.from({ length: 3 }, async (_, i) => {
            const res = await call(`/api/sentences?mode=async`, { original_text: `Capped sentence ${tag} ${i}.` }, asyncHeaders);
            expect(res.status).toBe(202);
            return res.body.sentence.id as string;
          }),
        ),
        // Requests contend too: each waits up to its bound, then is answered 503.
        Promise.all(
          Array.from({ length: 4 }, async (_, i) => {
            const body = { request_id: `cap-${tag}-${i}`, target_language: 'de', source_language: 'en', items: [{ id: 'a', text: `Capped page ${tag} ${i}` }] };
            return (await call('/api/immersive-translate', body)).status;
          }),
        ),
      ]);
      expect(sync.every((status) => status === 200 || status === 503)).toBe(true);

      const importedIds = (
        await sql<{ card_id: string }>(stack, `SELECT card_id FROM library_import_rows WHERE import_id = ? AND card_id IS NOT NULL`, [
          imported.body.import.importId,
        ])
      ).map((r) => r.card_id);
      const cards = [...captured, ...importedIds];
      expect(cards).toHaveLength(18);
      await vi.waitFor(async () => expect((await cardStates(cards)).map((c) => c.enrichment_status)).toEqual(cards.map(() => 'ready')), {
        timeout: 90_000,
        interval: 300,
      });
      await vi.waitFor(
        async () => {
          const rows = await sql<{ status: string }>(stack, `SELECT status FROM sentences WHERE id IN (?)`, [sentences]);
          expect(rows.map((r) => r.status)).toEqual(sentences.map(() => 'translated'));
        },
        { timeout: 30_000, interval: 300 },
      );

      expect(stack.fake.stats().mostInFlight).toBe(CAP);
      expect((await chargesOf(cards, 'capture_preparation')).map((c) => c.n)).toEqual(cards.map(() => 1));
      expect((await chargesOf(sentences, 'sentence_translation')).map((c) => c.n)).toEqual(sentences.map(() => 1));
    } finally {
      await other.kill();
    }
  });

  it('a synchronous request waits up to its bound for a slot, then is answered 503 with Retry-After; nothing reaches the provider', async () => {
    const { model } = stack.context();
    let release!: () => void;
    const busy = new Promise<void>((resolve) => (release = resolve));
    const held = Array.from({ length: CAP }, () => model.inSlot(() => busy, {}));
    try {
      const text = `Refused while busy ${randomUUID()}.`;
      const refused = await call('/api/sentences', { original_text: text });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(refused.body).toMatchObject({ code: 'service_unavailable', status: 503 });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(stack.fake.stats().received).toBe(0);
      expect(await chargesOf([refused.body.sentenceId], 'sentence_translation')).toEqual([]);
      release();
      await Promise.all(held);
      // Once a slot is free, the same sentence goes through.
      const again = await call('/api/sentences', { original_text: text });
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(again.body.sentence.status).toBe('translated');
    } finally {
      release();
    }
  });

  it("a dead holder's slot comes back: leases nobody renews lapse, and waiting background work goes on", async () => {
    // What a process that died holding every slot leaves behind: leases that nobody renews.
    await sql(
      stack,
      `UPDATE model_call_slots SET holder = gen_random_uuid(), lease_expires_at = clock_timestamp() + interval '2 seconds' WHERE endpoint = ? AND slot < ?`,
      [stack.config.model.baseUrl, CAP],
    );
    const cardId = await capture(`after a dead holder ${randomUUID()}`);
    await vi.waitFor(async () => expect((await cardStates([cardId]))[0]?.enrichment_status).toBe('ready'), { timeout: 30_000, interval: 200 });
    expect((await chargesOf([cardId], 'capture_preparation')).map((c) => c.n)).toEqual([1]);
  });

  it('gives a process its slots in the order it asked: the card captured first is prepared first', async () => {
    const slots = modelSlots(stack.orm, `http://fifo.test/${randomUUID()}`, 1);
    let release!: () => void;
    const holder = slots.run(() => new Promise<void>((resolve) => (release = resolve)), {});
    await vi.waitFor(() => expect(release).toBeTypeOf('function'));
    const order: number[] = [];
    const waiters = Array.from({ length: 6 }, (_, i) => slots.run(async () => void order.push(i), {}));
    // Long enough for every waiter to have polled a few times and queued again, which once reordered them.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    release();
    await Promise.all([holder, ...waiters]);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("time spent waiting for a slot does not count toward the call's time limit", async () => {
    const quick = createModelClient(
      { ...stack.config.model, timeoutMs: 300, maxRetries: 0, concurrency: { max: 1, syncWaitMs: 30_000 } },
      { slots: modelSlots(stack.orm, stack.config.model.baseUrl, 1) },
    );
    let released = false;
    let answeredAfterRelease: boolean | undefined;
    stack.fake.setResponder('slot_wait_test', () => {
      answeredAfterRelease = released;
      return { word: 'ok' };
    });
    // The slot stays busy for several times the call's limit, from before the call asks for it.
    let holding = false;
    const holder = quick.inSlot(
      () =>
        new Promise<void>((resolve) => {
          holding = true;
          setTimeout(() => {
            released = true;
            resolve();
          }, 2_000);
        }),
      {},
    );
    await vi.waitFor(() => expect(holding).toBe(true));
    const request = { task: 'slot_wait_test', schema: z.object({ word: z.string() }), system: 'Say ok.', input: { say: 'ok' }, maxTokens: 20 };
    const result = await quick.complete(request);
    await holder;
    expect(result.data).toEqual({ word: 'ok' });
    expect(answeredAfterRelease).toBe(true);
  });
});

describe('back at once when the model is', () => {
  it('cards and a sentence waiting out an outage go on once a probe finds the provider back, within their attempt: no retry timer runs', async () => {
    const { model } = stack.context();
    const echo = { task: 'outage_opener', schema: z.object({ word: z.string() }), system: 'Say ok.', input: {}, maxTokens: 20 };
    stack.fake.setMode('fail', { status: 503 });
    // The breaker opens as in an outage: calls failing in a row.
    for (let i = 0; i < BREAKER_DEFAULTS.threshold; i++) await model.complete(echo).catch(() => {});
    // Each failed attempt whose retry is a timer on the Temporal server.
    const timers = () =>
      Promise.all(
        ['prepareCardEnrichment', 'translateSentence'].map((activity) =>
          counterValue('lcs_activity_failures_total', { activity, code: 'service_unavailable', retried: 'true' }),
        ),
      );
    const timersBefore = await timers();

    const tag = randomUUID().slice(0, 8);
    const cards = await Promise.all(Array.from({ length: 3 }, (_, i) => capture(`waiting out ${tag} ${i}`)));
    const sentence = await call(`/api/sentences?mode=async`, { original_text: `Waiting out ${tag}.` }, asyncHeaders);
    expect(sentence.status).toBe(202);
    const sentenceId: string = sentence.body.sentence.id;
    // Those in a slot wait for the provider, and say so; the others wait for a slot (the cap).
    await vi.waitFor(
      async () => {
        const rows = await sql<{ waiting: boolean }>(
          stack,
          `SELECT waiting_since IS NOT NULL AS waiting FROM cards WHERE id IN (?) UNION ALL SELECT waiting_since IS NOT NULL FROM sentences WHERE id = ?`,
          [cards, sentenceId],
        );
        expect(rows.filter((r) => r.waiting)).toHaveLength(CAP);
      },
      { timeout: 20_000, interval: 200 },
    );

    stack.fake.setMode('ok');
    await vi.waitFor(
      async () => {
        expect((await cardStates(cards)).map((c) => c.enrichment_status)).toEqual(cards.map(() => 'ready'));
        expect((await sql<{ status: string }>(stack, `SELECT status FROM sentences WHERE id = ?`, [sentenceId]))[0]?.status).toBe('translated');
      },
      { timeout: 30_000, interval: 200 },
    );
    // None of them failed an attempt: each waited within it, and went on at the first good answer.
    expect(await timers()).toEqual(timersBefore);
    expect((await chargesOf(cards, 'capture_preparation')).map((c) => c.n)).toEqual(cards.map(() => 1));
    expect((await chargesOf([sentenceId], 'sentence_translation')).map((c) => c.n)).toEqual([1]);
    expect(await sql(stack, `SELECT 1 FROM credit_holds WHERE user_id = ?`, [user.userId])).toHaveLength(0);
  });
});
