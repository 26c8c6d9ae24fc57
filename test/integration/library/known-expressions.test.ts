import { describe, expect, it } from 'vitest';
import type { Stack } from '../../support/stack.ts';
import { useStack } from '../../support/fixture.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { capture, waitForStatus } from './helpers.ts';
import { api, expectStatus } from '../../support/api.ts';

let stack: Stack;
let user: TestUser;
useStack((started) => ({ stack, user } = started));

const known = (token: string, etag?: string) => api(stack, { token }).GET('/api/library/known-expressions', { headers: etag ? { 'if-none-match': etag } : {} });

describe('GET /api/library/known-expressions', () => {
  it('lists the card texts normalised with their translation, and answers 304 until the library changes', async () => {
    const learner = await newUser(stack);
    const empty = await known(learner.token);
    expectStatus(empty, 200);
    expect(empty.body.expressions).toEqual([]);

    const card = await capture(stack, learner, '  Break a LEG! ');
    const ready = await waitForStatus(stack, learner, card.cardId, 'ready');
    const first = await known(learner.token, empty.headers.get('etag')!);
    expectStatus(first, 200);
    expect(first.body.expressions).toEqual([{ cardId: card.cardId, text: 'break a leg', translation: ready.enrichment!.translation }]);
    const etag = first.headers.get('etag')!;
    expect(first.body.etag).toBe(etag);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');

    const again = await known(learner.token, etag);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);

    await api(stack, { token: learner.token }).DELETE('/api/library', { params: { query: { cardId: card.cardId } } });
    const afterDelete = await known(learner.token, etag);
    expectStatus(afterDelete, 200);
    expect(afterDelete.body.expressions).toEqual([]);
  });

  it('is one learner’s own: another’s ETag does not answer 304, and their cards never show', async () => {
    await capture(stack, user, 'under the weather');
    const mine = await known(user.token);
    const other = await newUser(stack);
    const theirs = await known(other.token, mine.headers.get('etag')!);
    expectStatus(theirs, 200);
    expect(theirs.body.expressions).toEqual([]);
  });
});
