import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { newUser, type TestUser } from '../support/users.ts';
import { api, expectStatus } from '../support/api.ts';
import { startCountingProxy, type CountingProxy } from './counting-proxy.ts';

/**
 * The service against a real local inference server (`npm run local-model`: llama.cpp's server through
 * llama-cpp-python, with Gemma 3 270M), behind a proxy that counts the calls in flight. Run by
 * `npm run test:local-model`, not by `npm test` (a card takes seconds of CPU here; CI has no minutes to
 * spare). It prints what the tiny model answered, the output mode the negotiation settled on, and the
 * time per card beside the fake's at 0 ms in the same run; it asserts what must hold whatever the model
 * says: each card ends ready or with a stored reason, a page is answered, and a cap is held.
 */
const local = inject('localModel');
const CARD_WAIT_MS = 10 * 60_000;
/**
 * What one capture may take behind the others under the cap: about 20 s alone on this 2-core machine, but two or
 * three minutes when it shares the machine, since the tiny model often writes up to its token limit and is then asked
 * once more. 50 captures may so take two hours.
 */
const CARD_BUDGET_MS = 4 * 60_000;

const figures: string[] = [];
const note = (line: string) => {
  figures.push(line);
  console.log(`[local model] ${line}`);
};
afterAll(() => console.log(`\n[local model] figures of this run:\n  ${figures.join('\n  ')}`));

/** A stack whose model is the deployment's own endpoint at `baseUrl`, free (local servers report no cost). */
const ownModelStack = (baseUrl: string | null, env: Record<string, string> = {}) =>
  startStack({
    env: {
      MODEL_PROVIDER: 'openai-compatible',
      // No MODEL_NAME for the real server: it is asked which model it serves (GET /models), as a self-hoster's would be.
      ...(baseUrl ? { MODEL_BASE_URL: baseUrl } : { MODEL_NAME: local.model }),
      MODEL_INPUT_USD_PER_MILLION_TOKENS: '0',
      MODEL_OUTPUT_USD_PER_MILLION_TOKENS: '0',
      // One answer takes seconds of CPU, and the server answers one request at a time.
      MODEL_TIMEOUT_MS: '300000',
      MODEL_MAX_RETRIES: '1',
      PROVIDER_WAIT_WINDOW_MS: '600000',
      ...env,
    },
  });

async function settled(stack: Stack, user: TestUser, cardId: string, timeout = CARD_WAIT_MS) {
  return vi.waitFor(
    async () => {
      const res = await api(stack, { token: user.token }).GET('/api/library/{cardId}', { params: { path: { cardId } } });
      expectStatus(res, 200);
      expect(res.body.card.enrichmentStatus).not.toBe('pending');
      return res.body;
    },
    { timeout, interval: 250 },
  );
}

async function capture(stack: Stack, user: TestUser, text: string) {
  const res = await api(stack, { token: user.token }).POST('/api/library', { body: { text } });
  expectStatus(res, 202);
  return res.body.card.cardId;
}

/** Ready with a translation, or failed with a code and a message the learner can read: never pending, never without a reason. */
function expectReadyOrReasoned(detail: Awaited<ReturnType<typeof settled>>) {
  const { card } = detail;
  if (card.enrichmentStatus === 'ready') expect(card.enrichment?.translation).toMatch(/\S/);
  else expect(card.enrichmentError).toEqual({ code: expect.any(String), message: expect.stringMatching(/\S/) });
}

/** Captures one after another, each to the end: the median time from capture to ready or failed. */
async function medianCardMs(stack: Stack, user: TestUser, texts: readonly string[]) {
  const times: number[] = [];
  for (const text of texts) {
    const started = performance.now();
    const detail = await settled(stack, user, await capture(stack, user, text));
    times.push(performance.now() - started);
    expectReadyOrReasoned(detail);
  }
  return Math.round(times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!);
}

const EXPRESSIONS = ['break the ice', 'harpoon'];
/** 50 by default, as issue 34 asks; fewer where a run has no hour to spare (a card takes a minute of a loaded 2-core machine). */
const CAPPED_CAPTURES = Number(process.env.LOCAL_MODEL_CAPTURES ?? 50);
const localCardMs: number[] = [];

describe('a real local model', () => {
  let proxy: CountingProxy;
  let stack: Stack;
  let user: TestUser;
  beforeAll(async () => {
    proxy = await startCountingProxy(local.baseUrl);
    stack = await ownModelStack(proxy.baseUrl);
    user = await newUser(stack);
  });
  afterAll(async () => {
    await stack?.close();
    await proxy?.close();
  });

  it('prepares captures end to end, or fails them with a stored reason, and the negotiation settles on one output mode', async () => {
    const outcomes: string[] = [];
    for (const text of EXPRESSIONS) {
      const started = performance.now();
      const detail = await settled(stack, user, await capture(stack, user, text));
      localCardMs.push(performance.now() - started);
      expectReadyOrReasoned(detail);
      const { card } = detail;
      if (card.enrichmentStatus === 'ready') expect(card.preparedByModel).toMatch(/\S/);
      outcomes.push(
        card.enrichmentStatus === 'ready'
          ? `"${text}" → ready: ${JSON.stringify(card.enrichment)}`
          : `"${text}" → failed: ${card.enrichmentError!.code}: ${card.enrichmentError!.message}`,
      );
    }
    for (const outcome of outcomes) note(outcome);
    const modes = await stack.orm.em.fork().execute<{ mode: string }[]>(`SELECT mode FROM model_output_modes WHERE endpoint = ?`, [proxy.baseUrl]);
    note(`output mode remembered: ${modes[0]?.mode ?? 'json_schema (the first tried; nothing to remember)'}`);
    note(`calls by output mode and status: ${JSON.stringify(tally(proxy.calls.map((c) => `${c.outputMode} ${c.status}`)))}`);
    expect(proxy.calls.some((c) => c.status === 200)).toBe(true);
  });

  it('translates a page: every item answered in order, or the batch refused with a problem', async () => {
    const items = [
      { id: 'p1', text: 'The weather is lovely today.' },
      { id: 'p2', text: 'Where is the train station?' },
    ];
    const res = await api(stack, { token: user.token, expected5xx: [502, 503] }).POST('/api/immersive-translate', {
      body: { request_id: `req-${randomUUID()}`, target_language: 'fr', source_language: 'auto', items },
    });
    if (res.status === 200) {
      expect(res.body.items.map((i) => i.id)).toEqual(['p1', 'p2']);
      note(`page translated: ${JSON.stringify(res.body.items.map((i) => i.text))}`);
    } else {
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
      note(`page refused: ${res.status} ${JSON.stringify(res.body)}`);
    }
  });

  it('figures: time per card on the local model beside the fake answering at once (same code path, same run)', async () => {
    const fakeStack = await ownModelStack(null);
    try {
      fakeStack.fake.setQuirks({ anonymous: true, reportsNoCost: true });
      const fakeUser = await newUser(fakeStack);
      const onFake = await medianCardMs(
        fakeStack,
        fakeUser,
        EXPRESSIONS.map((e) => `${e} ${randomUUID().slice(0, 4)}`),
      );
      note(`time per card, capture → settled, one at a time: local model ${localCardMs.map(Math.round).join(' and ')} ms; fake at 0 ms ${onFake} ms (median)`);
    } finally {
      await fakeStack.close();
    }
  });
});

describe.skipIf(!hasCap())('the cap of 1 (MODEL_MAX_CONCURRENCY) on a real local model', () => {
  let proxy: CountingProxy;
  let stack: Stack;
  let user: TestUser;
  beforeAll(async () => {
    proxy = await startCountingProxy(local.baseUrl);
    stack = await ownModelStack(proxy.baseUrl, { MODEL_MAX_CONCURRENCY: '1' });
    user = await newUser(stack);
  });
  afterAll(async () => {
    await stack?.close();
    await proxy?.close();
  });

  it(
    `holds while ${CAPPED_CAPTURES} captures and a page arrive together: one call in flight at most, cards settled, the page answered or 503`,
    async () => {
      const texts = Array.from({ length: CAPPED_CAPTURES }, (_, i) => `word ${i} ${randomUUID().slice(0, 4)}`);
      // 502: the tiny model's answer was refused (provider_output_invalid), as it may be without a cap.
      const page = api(stack, { token: user.token, expected5xx: [502, 503] }).POST('/api/immersive-translate', {
        body: { request_id: `req-${randomUUID()}`, target_language: 'fr', source_language: 'auto', items: [{ id: 'p1', text: 'Good morning, everyone.' }] },
      });
      const cardIds = await Promise.all(texts.map((text) => capture(stack, user, text)));
      const answer = await page;
      if (answer.status === 503) expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      else if (answer.status === 502) expect(JSON.stringify(answer.body)).toContain('provider_output_invalid');
      else expectStatus(answer, 200);
      const statuses: string[] = [];
      // Each card is waited for until the last may be done: the first captured is not always the first prepared.
      const allSettleBy = Date.now() + CAPPED_CAPTURES * CARD_BUDGET_MS - 60_000;
      for (const cardId of cardIds) {
        const detail = await settled(stack, user, cardId, Math.max(1_000, allSettleBy - Date.now()));
        expectReadyOrReasoned(detail);
        statuses.push(detail.card.enrichmentStatus === 'ready' ? 'ready' : `failed ${detail.card.enrichmentError!.code}`);
        console.log(`[local model] cap 1: ${statuses.length} of ${CAPPED_CAPTURES} settled, most calls in flight so far ${proxy.peak()}`);
      }
      note(
        `cap 1, ${CAPPED_CAPTURES} captures and a page at once: most calls in flight ${proxy.peak()}; ` +
          `cards ${JSON.stringify(tally(statuses))}; page ${answer.status} ${JSON.stringify(answer.body)}`,
      );
      expect(proxy.peak()).toBe(1);
    },
    CAPPED_CAPTURES * CARD_BUDGET_MS,
  );
});

/** Whether the configuration has MODEL_MAX_CONCURRENCY yet (issue 34's cap, built beside this test). */
function hasCap(): boolean {
  return 'concurrency' in loadConfig({ DATABASE_URL: 'postgres://unused/unused', MODEL_MAX_CONCURRENCY: '1' }).model;
}

function tally(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}
