import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CARD_CONTEXTS_MAX, CONTEXT_MAX, SOURCE_URL_MAX } from '../../../src/domain/limits.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { api, bodyOf, expectProblem, expectStatus } from '../../support/api.ts';
import { preparationCalls, preparationCharges, waitForStatus } from './helpers.ts';

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
});

const RIVER = 'We had a picnic on the bank of the river.';
const MONEY = 'I opened a savings account at the bank on Monday.';

async function captureIn(user: TestUser, text: string, context: string) {
  return api(stack, { token: user.token }).POST('/api/library', { body: { text, context } });
}

describe('capture with context', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await newUser(stack);
  });

  it('prepares "bank" met by a river for the river sense, with the sentence in the prompt, and keeps the sentence on the card', async () => {
    const res = await captureIn(user, 'bank', `  ${RIVER}  `);
    expectStatus(res, 202);
    expect(res.body.context).toEqual({ contextId: expect.any(String), text: RIVER, start: 23, end: 27, createdAt: expect.any(String), sourceUrl: null });
    const card = await waitForStatus(stack, user, res.body.card.cardId, 'ready');
    expect(card.enrichment!.sense).toEqual({ gloss: '[fr] edge of a river', cue: 'river' });
    expect(card.enrichment!.usage.guidance).toContain('edge of a river');
    expect(card.contexts).toEqual([res.body.context]);
    expect(card.preparedContextId).toBe(res.body.context!.contextId);

    const [call] = preparationCalls(stack);
    expect(JSON.parse(call!.body.messages[1].content)).toMatchObject({ text: 'bank', context: RIVER });
    expect(call!.body.messages[0].content).toContain('explain the sense `context` uses');
    // The workflow carries ids only: no sentence in Temporal.
    const history = await stack.temporal.workflow.getHandle(`card-enrichment/${card.cardId}`).fetchHistory();
    expect(JSON.stringify(history)).not.toContain('picnic');
  });

  it('the money sentence gets the money sense', async () => {
    const fresh = await newUser(stack);
    const card = await waitForStatus(stack, fresh, bodyOf(await captureIn(fresh, 'bank', MONEY), 202).card.cardId, 'ready');
    expect(card.enrichment!.sense).toEqual({ gloss: '[fr] institution for money', cue: 'savings' });
  });

  it('refuses a context without the expression, an oversized one and a blank one with 400 naming context, and saves nothing', async () => {
    const fresh = await newUser(stack);
    const missing = await captureIn(fresh, 'bank', 'We walked along the river.');
    expectProblem(missing, 400, 'invalid_request');
    expect(missing.body.detail).toContain('must contain the expression “bank”');
    expect(missing.body.errors).toEqual([{ path: 'context', message: expect.stringContaining('must contain') }]);
    expectProblem(await captureIn(fresh, 'bank', `bank ${'y'.repeat(CONTEXT_MAX)}`), 400, 'invalid_request');
    expectProblem(await captureIn(fresh, 'bank', '   '), 400, 'invalid_request');
    const list = bodyOf(await api(stack, { token: fresh.token }).GET('/api/library', {}), 200);
    expect(list.items).toEqual([]);
  });

  it('keeps a link back to where the sentence was met (http or https, bounded, with a context only) and refuses any other with 400', async () => {
    const fresh = await newUser(stack);
    const client = api(stack, { token: fresh.token });
    const moment = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s';
    const kept = bodyOf(await client.POST('/api/library', { body: { text: 'bank', context: RIVER, sourceUrl: moment } }), 202);
    expect(kept.context!.sourceUrl).toBe(moment);
    // The same sentence again, heard elsewhere: the first link stays.
    const again = bodyOf(await client.POST('/api/library', { body: { text: 'bank', context: RIVER, sourceUrl: 'https://example.org/#t=3' } }), 200);
    expect(again.context).toEqual(kept.context);
    for (const sourceUrl of [
      'javascript:alert(1)',
      'data:text/html,hi',
      'ftp://example.org/x',
      'not a url',
      `https://example.org/${'a'.repeat(SOURCE_URL_MAX)}`,
    ]) {
      const refused = await client.POST('/api/library', { body: { text: 'bank', context: MONEY, sourceUrl } });
      expectProblem(refused, 400, 'invalid_request');
    }
    const alone = await client.POST('/api/library', { body: { text: 'river', sourceUrl: moment } });
    expectProblem(alone, 400, 'invalid_request');
    expect(alone.body.errors).toEqual([{ path: 'sourceUrl', message: 'needs a context' }]);
    const card = bodyOf(await client.GET('/api/library/{cardId}', { params: { path: { cardId: kept.card.cardId } } }), 200).card;
    expect(card.contexts.map((c) => c.sourceUrl)).toEqual([moment]);
    expect(bodyOf(await client.GET('/api/library', {}), 200).items.map((c) => c.text)).toEqual(['bank']);
  });

  it('charges what the longer prompt costs: a context is priced by its tokens', async () => {
    stack.fake.setTokenPrices({ prompt: '3', completion: '15' });
    const fresh = await newUser(stack);
    const plain = bodyOf(await api(stack, { token: fresh.token }).POST('/api/library', { body: { text: 'river bank' } }), 202).card;
    const inContext = bodyOf(await captureIn(fresh, 'bank', RIVER), 202).card;
    await waitForStatus(stack, fresh, plain.cardId, 'ready');
    await waitForStatus(stack, fresh, inContext.cardId, 'ready');
    const charges = await preparationCharges(stack, fresh.userId);
    const byCard = Object.fromEntries(charges.map((c) => [c.ref, -c.amount]));
    expect(byCard[inContext.cardId]).toBeGreaterThan(byCard[plain.cardId]!);
  });
});

describe('a known expression met in a new context', () => {
  it('adds the sentence to the card, free and without preparing again, keeping the first and the newest up to the cap; never a second card', async () => {
    const user = await newUser(stack);
    const first = bodyOf(await captureIn(user, 'bank', RIVER), 202);
    await waitForStatus(stack, user, first.card.cardId, 'ready');
    const calls = preparationCalls(stack).length;
    const charged = (await preparationCharges(stack, user.userId)).length;

    const again = await captureIn(user, 'BANK', MONEY);
    expectStatus(again, 200);
    expect(again.body).toMatchObject({ reused: true, card: { cardId: first.card.cardId }, context: { text: MONEY, start: 34, end: 38 } });
    // The same sentence again adds nothing.
    expect(bodyOf(await captureIn(user, 'bank', MONEY), 200).context!.contextId).toBe(again.body.context!.contextId);

    const sentences = Array.from({ length: CARD_CONTEXTS_MAX + 2 }, (_, i) => `Sentence ${i} about the bank.`);
    // Concurrently: the card row lock keeps the cap between them.
    await Promise.all(sentences.map((s) => captureIn(user, 'bank', s)));
    const card = bodyOf(await api(stack, { token: user.token }).GET('/api/library/{cardId}', { params: { path: { cardId: first.card.cardId } } }), 200).card;
    expect(card.contexts).toHaveLength(CARD_CONTEXTS_MAX);
    expect(card.contexts[0]!.text).toBe(RIVER);
    expect(card.preparedContextId).toBe(first.context!.contextId);

    expect(preparationCalls(stack).length).toBe(calls);
    expect(await preparationCharges(stack, user.userId)).toHaveLength(charged);
    const list = bodyOf(await api(stack, { token: user.token }).GET('/api/library', {}), 200);
    expect(list.items).toHaveLength(1);
  });

  it('"prepare this sense" prepares the card again for the chosen context, charged, and refuses what it cannot do', async () => {
    const user = await newUser(stack);
    const other = await newUser(stack);
    stack.fake.setLatency(1_500);
    const first = bodyOf(await captureIn(user, 'bank', MONEY), 202);
    const river = bodyOf(await captureIn(user, 'bank', RIVER), 200).context!;
    const cardId = first.card.cardId;
    const client = api(stack, { token: user.token });
    // Pending: not yet.
    expectProblem(await client.POST('/api/library/{cardId}/sense', { params: { path: { cardId } }, body: { contextId: river.contextId } }), 409, 'conflict');
    stack.fake.setLatency(0);
    await waitForStatus(stack, user, cardId, 'ready');
    expectProblem(
      await client.POST('/api/library/{cardId}/sense', { params: { path: { cardId } }, body: { contextId: first.context!.contextId } }),
      409,
      'conflict',
    );
    expectProblem(
      await api(stack, { token: other.token }).POST('/api/library/{cardId}/sense', { params: { path: { cardId } }, body: { contextId: river.contextId } }),
      404,
      'not_found',
    );
    expectProblem(
      await client.POST('/api/library/{cardId}/sense', { params: { path: { cardId } }, body: { contextId: crypto.randomUUID() } }),
      409,
      'conflict',
    );

    const refreshed = await client.POST('/api/library/{cardId}/sense', { params: { path: { cardId } }, body: { contextId: river.contextId } });
    expectStatus(refreshed, 202);
    expect(refreshed.body.card).toMatchObject({ cardId, enrichmentStatus: 'pending' });
    const ready = await vi.waitFor(
      async () => {
        const card = await waitForStatus(stack, user, cardId, 'ready');
        expect(card.enrichment!.sense!.gloss).toBe('[fr] edge of a river');
        return card;
      },
      { timeout: 45_000 },
    );
    expect(ready.preparedContextId).toBe(river.contextId);
    expect((await preparationCharges(stack, user.userId)).map((c) => c.idempotency_key)).toEqual([
      `card-enrichment/${cardId}/attempt-1`,
      `card-enrichment/${cardId}/attempt-2`,
    ]);
  });

  it('deleting the card deletes its contexts', async () => {
    const user = await newUser(stack);
    const { card } = bodyOf(await captureIn(user, 'bank', RIVER), 202);
    expectStatus(await api(stack, { token: user.token }).DELETE('/api/library', { params: { query: { cardId: card.cardId } } }), 204);
    const rows = await stack.orm.em.fork().execute(`SELECT 1 FROM card_contexts WHERE card_id = ?`, [card.cardId]);
    expect(rows).toEqual([]);
  });
});
