import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMask } from '../../../src/features/replay/mask.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser } from '../../support/users.ts';
import { api, bodyOf, expectProblem } from '../../support/api.ts';
import { hoursAgo, insertCard } from './cards.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ worker: false });
});
afterAll(async () => {
  await stack?.close();
});

describe('Replay with the learner’s own contexts', () => {
  it(
    'offers a cloze of the expression inside the newest sentence, shows a card met since its last review, ' + 'and rates the context answer on its own mask',
    async () => {
      const user = await newUser(stack);
      const client = api(stack, { token: user.token });
      const bank = await insertCard(stack.orm, user.userId, {
        text: 'bank',
        state: 'review',
        due: hoursAgo(2),
        stability: 3,
        reps: 2,
        createdAt: hoursAgo(200),
      });
      const plain = await insertCard(stack.orm, user.userId, { text: 'hit the sack', createdAt: hoursAgo(100) });
      await stack.orm.em.fork().execute(`UPDATE card_schedules SET last_review = ? WHERE card_id = ?`, [hoursAgo(48), bank]);
      // Two sentences (the newest is the prompt) and an encounter since the last review.
      bodyOf(await client.POST('/api/library', { body: { text: 'bank', context: 'The bank was closed.' } }), 200);
      bodyOf(await client.POST('/api/library', { body: { text: 'bank', context: 'We sat on the Bank of the river.' } }), 200);
      bodyOf(
        await client.POST('/api/encounters', { body: { pageViewId: randomUUID(), encounters: [{ cardId: bank, metAt: hoursAgo(1).toISOString() }] } }),
        200,
      );

      const session = bodyOf(await client.GET('/api/replay', { params: { query: { count: 10 } } }), 200);
      const item = session.items.find((i) => i.cardId === bank)!;
      expect(item.metSinceReview).toBe(true);
      expect(item.context).toEqual({
        contextId: expect.any(String),
        before: 'We sat on the ',
        answer: 'Bank',
        after: ' of the river.',
        mask: buildMask({ cardId: bank, answer: 'Bank', stability: 3, reps: 2 }),
      });
      const other = session.items.find((i) => i.cardId === plain)!;
      expect(other).toMatchObject({ metSinceReview: false, context: null });

      // Resumed: the same cloze.
      const resumed = bodyOf(await client.GET('/api/replay', { params: { query: { count: 10 } } }), 200);
      expect(resumed.items.find((i) => i.cardId === bank)!.context).toEqual(item.context);

      expectProblem(
        await client.POST('/api/replay', { body: { itemId: other.itemId, usedHint: false, autoFilled: false, unaidedErrors: 0, prompt: 'context' } }),
        400,
        'invalid_request',
      );
      bodyOf(await client.POST('/api/replay', { body: { itemId: item.itemId, usedHint: false, autoFilled: false, unaidedErrors: 0, prompt: 'context' } }), 200);
      const [log] = await stack.orm.em
        .fork()
        .execute<{ prompt: string; hidden_count: number }[]>(`SELECT prompt, hidden_count FROM review_logs WHERE card_id = ?`, [bank]);
      expect(log).toEqual({ prompt: 'context', hidden_count: [...item.context!.mask].filter((c) => c === '_').length });

      // Reviewed now: no longer "met since its last review".
      const card = bodyOf(await client.GET('/api/library/{cardId}', { params: { path: { cardId: bank } } }), 200).card;
      expect(card.metCount).toBe(1);
      expect(card.scheduling.lastReview).not.toBeNull();
    },
  );
});
