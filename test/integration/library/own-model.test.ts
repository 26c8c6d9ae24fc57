import { beforeEach, describe, expect, it } from 'vitest';
import type { Stack } from '../../support/stack.ts';
import { useStack } from '../../support/fixture.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { capture, preparationCharges, waitForStatus } from './helpers.ts';
import { api, expectStatus } from '../../support/api.ts';

/**
 * Captures prepared by the deployment's own OpenAI-compatible endpoint (MODEL_PROVIDER=openai-compatible),
 * played by the fake with the ways of weaker servers: each card ends ready or with a stored reason,
 * and is charged once at most.
 */
let stack: Stack;
let user: TestUser;
useStack((started) => ({ stack, user } = started), {
  env: {
    MODEL_PROVIDER: 'openai-compatible',
    MODEL_NAME: 'local/tiny-model',
    MODEL_INPUT_USD_PER_MILLION_TOKENS: '0.01',
    MODEL_OUTPUT_USD_PER_MILLION_TOKENS: '0.02',
    // An endpoint that is down at start is waited for long enough to come back within the test.
    PROVIDER_WAIT_WINDOW_MS: '60000',
  },
});

beforeEach(async () => {
  stack.fake.setQuirks({ anonymous: true, reportsNoCost: true });
  await stack.orm.em.fork().execute(`DELETE FROM model_output_modes`);
});

/** The preparation requests the fake received for this text, by output mode. */
const callsFor = (text: string) =>
  stack.fake.requests
    .filter((r) => typeof r.body?.messages?.[1]?.content === 'string' && JSON.parse(r.body.messages[1].content).text === text)
    .map((r) => r.body.response_format?.type ?? 'text');

const cardOf = async (cardId: string) => {
  const res = await api(stack, { token: user.token }).GET('/api/library/{cardId}', { params: { path: { cardId } } });
  expectStatus(res, 200);
  return res.body.card;
};

const chargesFor = async (cardId: string) => (await preparationCharges(stack, user.userId)).filter((c) => c.ref === cardId);

const fullAnswer = (input: { text: string; nativeLanguage: string }) => ({
  translation: `[${input.nativeLanguage}] ${input.text}`,
  correctedText: null,
  correctionNote: null,
  usage: { register: 'neutral', guidance: 'How to use it.', examples: [`I said ${input.text} twice.`] },
  focuses: [{ kind: 'meaning', note: 'Meaning.' }],
  sense: null,
});

describe('a capture through an endpoint that refuses json_schema', () => {
  it(
    'is prepared with json_object, the card records the model, it is charged once at the configured prices, ' + 'and the mode is remembered in PostgreSQL',
    async () => {
      stack.fake.setQuirks({ refusesJsonSchema: true });
      const card = await capture(stack, user, 'own model one');
      const ready = await waitForStatus(stack, user, card.cardId, 'ready');
      expect(ready.enrichment!.translation).toBe('[fr] own model one');
      expect(callsFor('own model one')).toEqual(['json_schema', 'json_object']);
      const sent = stack.fake.requests.at(-1)!;
      expect(sent.body.provider).toBeUndefined();
      expect(sent.headers.authorization).toBeUndefined();
      const [charge, ...more] = await chargesFor(card.cardId);
      expect(more).toEqual([]);
      expect(charge!.amount).toBeLessThan(0);

      const rows = await stack.orm.em.fork().execute(`SELECT endpoint, model, mode FROM model_output_modes`);
      expect(rows).toEqual([{ endpoint: stack.fake.baseUrl, model: 'local/tiny-model', mode: 'json_object' }]);

      const second = await capture(stack, user, 'own model two');
      await waitForStatus(stack, user, second.cardId, 'ready');
      expect(callsFor('own model two')).toEqual(['json_object']);
    },
  );
});

describe('where the learner’s text goes', () => {
  it('GET /api/me and the API reference name the deployment’s own endpoint, not the router', async () => {
    const host = new URL(stack.fake.baseUrl).host;
    const me = await api(stack, { token: user.token }).GET('/api/me');
    expectStatus(me, 200);
    expect(me.body.languageModel).toEqual({
      host,
      model: 'local/tiny-model',
      ownModel: true,
      statement: expect.stringContaining(`local/tiny-model at ${host}`),
    });
    const document = (await (await fetch(`${stack.baseUrl}/api/openapi.json`)).json()) as { info: { description: string } };
    expect(document.info.description).toContain('## Where your text goes');
    expect(document.info.description).toContain(`own language model, local/tiny-model at ${host}`);
  });
});

describe('answers degrade instead of failing', () => {
  it(
    'a weaker answer loses the parts it got wrong, not the card: a third focus, a rewrite, a sense without a context, ' + 'an example without the expression',
    async () => {
      stack.fake.setResponder('capture_preparation', (input) => ({
        ...fullAnswer(input),
        correctedText: 'Something else entirely, rewritten',
        correctionNote: 'Rewritten.',
        usage: { register: 'posh', guidance: 'How to use it.', examples: [`We ${input.text} daily.`, 'Nothing to do with it.'] },
        focuses: [
          { kind: 'meaning', note: 'One.' },
          { kind: 'vibes', note: 'Not a kind.' },
          { kind: 'grammar', note: 'Two.' },
          { kind: 'idiom', note: 'Three.' },
          { kind: 'spelling', note: 'Four.' },
        ],
        sense: { gloss: 'a sense', cue: 'nothing' },
      }));
      const card = await capture(stack, user, 'weak answer');
      const ready = await waitForStatus(stack, user, card.cardId, 'ready');
      expect(ready.enrichment).toEqual({
        translation: '[fr] weak answer',
        correctedText: null,
        correctionNote: null,
        usage: { register: 'neutral', guidance: 'How to use it.', examples: ['We weak answer daily.'] },
        focuses: [
          { kind: 'meaning', note: 'One.' },
          { kind: 'grammar', note: 'Two.' },
          { kind: 'idiom', note: 'Three.' },
        ],
      });
      expect(callsFor('weak answer')).toHaveLength(1);
      expect(await chargesFor(card.cardId)).toHaveLength(1);
    },
  );

  it('an answer without a translation is repaired once, showing the model what was wrong; the card is charged once', async () => {
    stack.fake.setResponder('capture_preparation', (input, { repairing }) => ({ ...fullAnswer(input), translation: repairing ? 'réparé' : '' }));
    const card = await capture(stack, user, 'repair me');
    const ready = await waitForStatus(stack, user, card.cardId, 'ready');
    expect(ready.enrichment!.translation).toBe('réparé');
    const [, repair] = stack.fake.requests.filter((r) => r.body.messages[1]?.content.includes('repair me'));
    expect(repair!.body.messages.at(-1).content).toContain('translation');
    expect(await chargesFor(card.cardId)).toHaveLength(1);
  });

  it('only a translation that stays missing fails the card, with its stored reason and no charge', async () => {
    stack.fake.setResponder('capture_preparation', (input) => ({ ...fullAnswer(input), translation: '' }));
    const card = await capture(stack, user, 'never translated');
    const failed = await waitForStatus(stack, user, card.cardId, 'failed');
    expect(failed.enrichmentError).toEqual({ code: 'provider_output_invalid', message: expect.stringContaining('translation') });
    expect(callsFor('never translated')).toHaveLength(2);
    expect(await chargesFor(card.cardId)).toEqual([]);
  });
});

describe('bad input from the endpoint', () => {
  it('an answer streamed although not asked for, in a code fence, is read', async () => {
    stack.fake.setQuirks({ streams: true, wraps: 'fence' });
    const card = await capture(stack, user, 'streamed in a fence');
    expect((await waitForStatus(stack, user, card.cardId, 'ready')).enrichment!.translation).toBe('[fr] streamed in a fence');
    expect(await chargesFor(card.cardId)).toHaveLength(1);
  });

  it('an answer cut off at the server’s own token limit fails the card as cut off, once, without a charge', async () => {
    stack.fake.setQuirks({ tokenLimit: 10 });
    const card = await capture(stack, user, 'cut short');
    const failed = await waitForStatus(stack, user, card.cardId, 'failed');
    expect(failed.enrichmentError).toEqual({ code: 'provider_output_invalid', message: expect.stringContaining('cut off') });
    expect(callsFor('cut short')).toHaveLength(1);
    expect(await chargesFor(card.cardId)).toEqual([]);
  });

  it('an endpoint down at start: the card waits, and is prepared and charged once when it comes up', async () => {
    stack.fake.setQuirks({ down: true });
    const card = await capture(stack, user, 'down at start');
    await expect
      .poll(
        async () => {
          const res = await api(stack, { token: user.token }).GET('/api/library/{cardId}', { params: { path: { cardId: card.cardId } } });
          expectStatus(res, 200);
          return res.body.card.enrichmentWaiting?.code;
        },
        { timeout: 30_000, interval: 200 },
      )
      .toBe('service_unavailable');
    stack.fake.setQuirks({ down: false });
    await waitForStatus(stack, user, card.cardId, 'ready');
    expect(await chargesFor(card.cardId)).toHaveLength(1);
  });

  it('a cost of 0 charges nothing and still makes the card ready', async () => {
    stack.fake.setQuirks({ reportsNoCost: false });
    stack.fake.setCost('0');
    const card = await capture(stack, user, 'free of charge');
    await waitForStatus(stack, user, card.cardId, 'ready');
    expect((await chargesFor(card.cardId)).map((c) => c.amount)).toEqual([0]);
  });
});

describe('MODEL_BASE_URL alone', () => {
  it('asks the endpoint which model it serves: while it lists several the card waits, then it is prepared by the one listed', async () => {
    const configured = stack.config.model.model;
    stack.config.model.model = ''; // as loadConfig leaves it without MODEL_NAME
    try {
      stack.fake.setQuirks({ models: ['llama3.2:3b', 'gemma3:270m'] });
      const card = await capture(stack, user, 'which model');
      await expect.poll(async () => (await cardOf(card.cardId)).enrichmentStatus, { timeout: 5_000, interval: 200 }).toBe('pending');
      expect(callsFor('which model')).toEqual([]);
      stack.fake.setQuirks({ models: ['gemma3:270m'] });
      const ready = await waitForStatus(stack, user, card.cardId, 'ready');
      expect(ready.preparedByModel).toBe('gemma3:270m');
      expect(stack.config.model.model).toBe('gemma3:270m');
      expect(await chargesFor(card.cardId)).toHaveLength(1);
    } finally {
      stack.config.model.model = configured;
    }
  });
});

describe('each card records the model that prepared it', () => {
  it('shows it on the card; "Prepare again" prepares a ready card anew, charged as a preparation; a pending one is a 409, another user’s a 404', async () => {
    const card = await capture(stack, user, 'prepared by whom');
    const ready = await waitForStatus(stack, user, card.cardId, 'ready');
    expect(ready.preparedByModel).toBe('local/tiny-model');

    // The model takes its time, so that the card is still pending when it is asked for again (at 0 ms it could be ready by then).
    stack.fake.setLatency(1_500);
    const again = await api(stack, { token: user.token }).POST('/api/library/{cardId}/prepare-again', { params: { path: { cardId: card.cardId } } });
    expectStatus(again, 202);
    expect(again.body.card).toMatchObject({ cardId: card.cardId, enrichmentStatus: 'pending' });
    const pending = await api(stack, { token: user.token }).GET('/api/library/{cardId}', { params: { path: { cardId: card.cardId } } });
    expectStatus(pending, 200);
    expect(pending.body.card.preparedByModel).toBeNull();
    const conflict = await api(stack, { token: user.token }).POST('/api/library/{cardId}/prepare-again', { params: { path: { cardId: card.cardId } } });
    expect(conflict.status).toBe(409);

    expect((await waitForStatus(stack, user, card.cardId, 'ready')).preparedByModel).toBe('local/tiny-model');
    expect((await chargesFor(card.cardId)).map((c) => c.idempotency_key)).toEqual([
      `card-enrichment/${card.cardId}/attempt-1`,
      `card-enrichment/${card.cardId}/attempt-2`,
    ]);

    const stranger = await newUser(stack);
    const notYours = await api(stack, { token: stranger.token }).POST('/api/library/{cardId}/prepare-again', { params: { path: { cardId: card.cardId } } });
    expect(notYours.status).toBe(404);
  });
});
