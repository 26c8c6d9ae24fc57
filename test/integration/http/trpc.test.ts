import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../support/stack.ts';
import { mintToken, newUser } from '../../support/users.ts';
import { api, bodyOf, expectProblem, expectStatus, rawHttp } from '../../support/api.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ worker: false });
});
afterAll(async () => {
  await stack?.close();
});

// tRPC is not in the REST document: its calls go through the raw client.
const query = (procedure: string, input?: unknown) => `/trpc/${procedure}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`;

describe('tRPC at /trpc over HTTP', () => {
  it('account.me with the session cookie', async () => {
    const user = await newUser(stack);
    const res = await rawHttp(stack, 'GET', query('account.me'), { cookie: user.cookie });
    expectStatus(res, 200);
    expect(res.body.result.data).toEqual({
      userId: user.userId,
      email: user.email,
      plan: 'free',
      targetLanguage: 'en',
      nativeLanguage: 'fr',
      access: 'session',
      languageModel: {
        host: new URL(stack.config.model.baseUrl).host,
        model: stack.config.model.model,
        ownModel: false,
        statement: expect.stringContaining('model router'),
      },
    });
  });

  it('account.me without credentials → UNAUTHORIZED with the problem', async () => {
    const res = await rawHttp(stack, 'GET', query('account.me'));
    expectStatus(res, 401);
    expect(res.body.error.data).toMatchObject({ code: 'UNAUTHORIZED', problem: { code: 'unauthenticated', status: 401 } });
  });

  it('a bad bearer token is refused before any procedure runs (401)', async () => {
    expectProblem(await rawHttp(stack, 'GET', query('account.me'), { headers: { authorization: 'Bearer not-a-token' } }), 401, 'unauthenticated');
  });

  it('account.tokens.create with a bearer token → FORBIDDEN, problem code forbidden, no stack trace', async () => {
    const user = await newUser(stack);
    const res = await rawHttp(stack, 'POST', '/trpc/account.tokens.create', { token: user.token, body: { name: 'x', scope: 'write' } });
    expectStatus(res, 403);
    expect(res.body.error.data).toMatchObject({ code: 'FORBIDDEN', problem: { code: 'forbidden', status: 403 } });
    expect(res.body.error.data).not.toHaveProperty('stack');
    expect(res.text).not.toMatch(/\.ts:\d+/);
  });

  it('account.tokens.create with the cookie shows the token once; the list never does', async () => {
    const user = await newUser(stack);
    const created = await rawHttp(stack, 'POST', '/trpc/account.tokens.create', { cookie: user.cookie, body: { name: 'from trpc', scope: 'read' } });
    expectStatus(created, 200);
    const token = created.body.result.data.token as string;
    expect((await api(stack, { token }).GET('/api/me')).status).toBe(200);
    const list = await rawHttp(stack, 'GET', query('account.tokens.list'), { cookie: user.cookie });
    expect(list.body.result.data.items).toHaveLength(2);
    expect(list.text).not.toContain(token);
  });

  it('account.setLanguages with the cookie and the own Origin works', async () => {
    const user = await newUser(stack);
    const res = await rawHttp(stack, 'POST', '/trpc/account.setLanguages', { cookie: user.cookie, body: { targetLanguage: 'en', nativeLanguage: 'de' } });
    expectStatus(res, 200);
    expect(res.body.result.data.nativeLanguage).toBe('de');
  });

  it('account.setLanguages with the cookie but no Origin → 403 (same CSRF rule as REST)', async () => {
    const user = await newUser(stack);
    const noOrigin = await rawHttp(stack, 'POST', '/trpc/account.setLanguages', {
      headers: { cookie: user.cookie },
      body: { targetLanguage: 'en', nativeLanguage: 'de' },
    });
    expectProblem(noOrigin, 403, 'origin_not_allowed');
    const foreign = await rawHttp(stack, 'POST', '/trpc/account.setLanguages', {
      headers: { cookie: user.cookie, origin: 'https://evil.example' },
      body: { targetLanguage: 'en', nativeLanguage: 'de' },
    });
    expectProblem(foreign, 403, 'origin_not_allowed');
    expect(bodyOf(await api(stack, { token: user.token }).GET('/api/me'), 200).nativeLanguage).toBe('fr');
  });

  it('a read-only token calling a mutation → 403 read_only_token; its queries work', async () => {
    const user = await newUser(stack);
    const { token } = await mintToken(stack, user.cookie, { scope: 'read' });
    expectProblem(
      await rawHttp(stack, 'POST', '/trpc/account.setLanguages', { token, body: { targetLanguage: 'en', nativeLanguage: 'de' } }),
      403,
      'read_only_token',
    );
    const credits = await rawHttp(stack, 'GET', query('credits.balance'), { token });
    expectStatus(credits, 200);
    expect(credits.body.result.data).toMatchObject({ balance: 500, plan: 'free' });
  });

  it('a write token may call mutations without an Origin', async () => {
    const user = await newUser(stack);
    const res = await rawHttp(stack, 'POST', '/trpc/account.setLanguages', { token: user.token, body: { targetLanguage: 'en', nativeLanguage: 'es' } });
    expectStatus(res, 200);
  });

  it('invalid input → 400 BAD_REQUEST with the invalid_request problem, as REST', async () => {
    const user = await newUser(stack);
    const res = await rawHttp(stack, 'POST', '/trpc/account.setLanguages', { token: user.token, body: { targetLanguage: 'xx-nope', nativeLanguage: 'fr' } });
    expectStatus(res, 400);
    expect(res.body.error.data).toMatchObject({ code: 'BAD_REQUEST', problem: { code: 'invalid_request', status: 400 } });
    expect(res.body.error.data.problem.errors).toContainEqual({ path: 'targetLanguage', message: expect.stringContaining('unsupported language') });
    const ledger = await rawHttp(stack, 'GET', query('credits.ledger', { cursor: '99999999999999999999999' }), { token: user.token });
    expectStatus(ledger, 400);
  });

  it('credits.ledger pages like REST', async () => {
    const user = await newUser(stack);
    const res = await rawHttp(stack, 'GET', query('credits.ledger', { limit: 10 }), { token: user.token });
    expect(res.body.result.data).toEqual({ items: [expect.objectContaining({ kind: 'grant', amount: 500 })], nextCursor: null });
  });
});
