import { describe, expect, it } from 'vitest';
import type { Stack } from '../../support/stack.ts';
import { useStack } from '../../support/fixture.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { waitForStatus } from './helpers.ts';
import { rawHttp } from '../../support/api.ts';

let stack: Stack;
let user: TestUser;
useStack((started) => ({ stack, user } = started), { fakeCost: '0.00001' }); // 1 credit per enrichment

type Auth = { cookie: string } | { token: string };

/** tRPC v11 over HTTP, unbatched, no transformer: queries GET ?input=, mutations POST with the input as body. */
const query = (auth: Auth, path: string, input: unknown) => rawHttp(stack, 'GET', `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, auth);
const mutate = (auth: Auth, path: string, input: unknown) => rawHttp(stack, 'POST', `/trpc/${path}`, { ...auth, body: input });

describe.each([
  ['the page session (cookie + Origin)', () => ({ cookie: user.cookie })],
  ['a bearer token', () => ({ token: user.token })],
])('library over tRPC with %s', (label, auth) => {
  it('captures, reuses, lists, searches, gets, and deletes with the same rules as REST', async () => {
    const text = `trpc capture via ${label}`;
    const captured = await mutate(auth(), 'library.capture', { text });
    expect(captured.status, captured.text).toBe(200);
    const card = captured.body.result.data.card;
    expect(captured.body.result.data).toMatchObject({ reused: false, card: { text, enrichmentStatus: 'pending', enrichment: null } });

    const reused = await mutate(auth(), 'library.capture', { text: text.toUpperCase() + '!' });
    expect(reused.body.result.data).toMatchObject({ reused: true, card: { cardId: card.cardId } });

    await waitForStatus(stack, user, card.cardId, 'ready');
    const listed = await query(auth(), 'library.list', { query: label.slice(0, 8).toUpperCase() });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.result.data.items).toEqual([expect.objectContaining({ cardId: card.cardId, enrichmentStatus: 'ready' })]);

    const got = await query(auth(), 'library.get', { cardId: card.cardId });
    expect(got.body.result.data.card).toMatchObject({ cardId: card.cardId, enrichment: { translation: `[fr] ${text}` }, scheduling: { reps: 0 } });

    const refresh = await mutate(auth(), 'library.retryPreparation', { cardId: card.cardId, action: 'refresh_enrichment' });
    expect(refresh.status).toBe(409);
    expect(refresh.body.error.data.problem).toMatchObject({ code: 'conflict', status: 409 });

    expect((await mutate(auth(), 'library.delete', { cardId: card.cardId })).body.result.data).toEqual({ deleted: true });
    const gone = await query(auth(), 'library.get', { cardId: card.cardId });
    expect(gone.status).toBe(404);
    expect(gone.body.error.data.problem.code).toBe('not_found');
  });

  it('validates input like REST (400)', async () => {
    const res = await mutate(auth(), 'library.capture', { text: '!!!' });
    expect(res.status).toBe(400);
    expect(res.body.error.data.code).toBe('BAD_REQUEST');
    const nul = await mutate(auth(), 'library.capture', { text: 'break\u0000 a leg' });
    expect(nul.status).toBe(400);
    expect(nul.body.error.data.problem).toMatchObject({ code: 'invalid_request', errors: [{ path: 'text' }] });
  });
});

it('refuses a cookie-authenticated tRPC write from a foreign origin', async () => {
  const res = await rawHttp(stack, 'POST', '/trpc/library.capture', {
    cookie: user.cookie,
    headers: { origin: 'https://evil.example' },
    body: { text: 'csrf attempt' },
  });
  expect(res.status).toBe(403);
});

it('answers 428 over tRPC before languages are set', async () => {
  const fresh = await newUser(stack, { languages: null });
  const res = await mutate({ token: fresh.token }, 'library.capture', { text: 'too early' });
  expect(res.status).toBe(428);
  expect(res.body.error.data.problem.code).toBe('language_setup_required');
});
