import { describe, expect, it } from 'vitest';
import type { Stack } from '../../support/stack.ts';
import { useStack } from '../../support/fixture.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { capture, waitForStatus } from './helpers.ts';

let stack: Stack;
let user: TestUser;
useStack((started) => ({ stack, user } = started));

const known = (token: string, etag?: string) =>
  stack.http('GET', '/api/library/known-expressions', { token, headers: etag ? { 'if-none-match': etag } : {} });

describe('GET /api/library/known-expressions', () => {
  it('lists the card texts normalised with their translation, and answers 304 until the library changes', async () => {
    const learner = await newUser(stack);
    const empty = await known(learner.token);
    expect(empty.status, empty.text).toBe(200);
    expect(empty.body.expressions).toEqual([]);

    const card = await capture(stack, learner, '  Break a LEG! ');
    const ready = await waitForStatus(stack, learner, card.cardId, 'ready');
    const first = await known(learner.token, empty.headers.get('etag')!);
    expect(first.status, first.text).toBe(200);
    expect(first.body.expressions).toEqual([{ cardId: card.cardId, text: 'break a leg', translation: ready.enrichment.translation }]);
    const etag = first.headers.get('etag')!;
    expect(first.body.etag).toBe(etag);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');

    const again = await known(learner.token, etag);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);

    await stack.http('DELETE', `/api/library?cardId=${card.cardId}`, { token: learner.token });
    const afterDelete = await known(learner.token, etag);
    expect(afterDelete.status).toBe(200);
    expect(afterDelete.body.expressions).toEqual([]);
  });

  it('is one learner’s own: another’s ETag does not answer 304, and their cards never show', async () => {
    await capture(stack, user, 'under the weather');
    const mine = await known(user.token);
    const other = await newUser(stack);
    const theirs = await known(other.token, mine.headers.get('etag')!);
    expect(theirs.status).toBe(200);
    expect(theirs.body.expressions).toEqual([]);
  });
});
