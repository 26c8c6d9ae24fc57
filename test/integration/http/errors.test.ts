import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_LIMIT_MAX } from '../../../src/domain/limits.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { api, expectProblem, rawHttp } from '../../support/api.ts';

const BODY_LIMIT = 2048;
let stack: Stack;
let user: TestUser;
beforeAll(async () => {
  stack = await startStack({ worker: false, env: { BODY_LIMIT_BYTES: String(BODY_LIMIT) } });
  user = await newUser(stack);
});
afterAll(async () => {
  await stack?.close();
});

const json = { 'content-type': 'application/json' };

describe('every error is an RFC 9457 problem', () => {
  it('malformed JSON → 400 invalid_request', async () => {
    expectProblem(await rawHttp(stack, 'POST', '/api/auth/login', { rawBody: '{"email":', headers: json }), 400, 'invalid_request');
    const res = await rawHttp(stack, 'PUT', '/api/settings/language', { token: user.token, rawBody: '{"targetLanguage": en}', headers: json });
    expectProblem(res, 400, 'invalid_request');
    expect(res.body.errors).toEqual([expect.objectContaining({ path: expect.any(String), message: expect.any(String) })]);
  });

  it('an empty JSON body → 400 invalid_request', async () => {
    expectProblem(await rawHttp(stack, 'POST', '/api/auth/login', { rawBody: '', headers: json }), 400, 'invalid_request');
  });

  it('a JSON body of the wrong shape (array, null, string) → 400 invalid_request', async () => {
    for (const rawBody of ['[]', 'null', '"text"', '42']) {
      expectProblem(await rawHttp(stack, 'POST', '/api/auth/login', { rawBody, headers: json }), 400, 'invalid_request');
    }
  });

  it('a text/plain or form body → 415 unsupported_media_type', async () => {
    expectProblem(
      await rawHttp(stack, 'POST', '/api/auth/login', { rawBody: 'hello', headers: { 'content-type': 'text/plain' } }),
      415,
      'unsupported_media_type',
    );
    expectProblem(
      await rawHttp(stack, 'PUT', '/api/settings/language', {
        token: user.token,
        rawBody: 'targetLanguage=en',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      415,
      'unsupported_media_type',
    );
  });

  it('a body over BODY_LIMIT_BYTES → 413 payload_too_large', async () => {
    const password = 'x'.repeat(BODY_LIMIT + 1);
    expectProblem(await api(stack).POST('/api/auth/login', { body: { email: user.email, password } }), 413, 'payload_too_large');
    expectProblem(
      await rawHttp(stack, 'PUT', '/api/settings/language', { token: user.token, body: { targetLanguage: 'en', nativeLanguage: 'fr', padding: password } }),
      413,
      'payload_too_large',
    );
  });

  it('an unknown route → 404 not_found', async () => {
    expectProblem(await rawHttp(stack, 'GET', '/api/does-not-exist', { token: user.token }), 404, 'not_found');
    expectProblem(await rawHttp(stack, 'POST', '/api/me/extra', { token: user.token, body: {} }), 404, 'not_found');
  });

  it('an unknown method on a known path → 405 method_not_allowed with Allow', async () => {
    const res = await rawHttp(stack, 'PATCH', '/api/me', { token: user.token });
    expectProblem(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')?.split(/,\s*/)).toContain('GET');
    const tokens = await rawHttp(stack, 'PUT', '/api/tokens', { token: user.token, body: {} });
    expectProblem(tokens, 405, 'method_not_allowed');
    expect(tokens.headers.get('allow')?.split(/,\s*/)).toEqual(expect.arrayContaining(['GET', 'POST']));
  });

  it('any method a path does not serve, whatever its name → 405 with Allow, before any body is read', async () => {
    for (const method of ['QUERY', 'PROPFIND', 'OPTIONS', 'PUT']) {
      const res = await rawHttp(stack, method, '/api/library', { token: user.token });
      expectProblem(res, 405, 'method_not_allowed');
      expect(res.headers.get('allow')?.split(/,\s*/).sort()).toEqual(['DELETE', 'GET', 'HEAD', 'PATCH', 'POST']);
    }
    expectProblem(await rawHttp(stack, 'QUERY', '/api/nothing-here', { token: user.token }), 404, 'not_found');
  });

  it('validation errors → 400 invalid_request with errors[{path, message}]', async () => {
    // Raw: a typed client cannot name an unsupported language or leave both out.
    const language = await rawHttp(stack, 'PUT', '/api/settings/language', { token: user.token, body: { targetLanguage: 'xx-nope', nativeLanguage: 'fr' } });
    expectProblem(language, 400, 'invalid_request');
    expect(language.body.errors).toContainEqual({ path: 'targetLanguage', message: expect.stringContaining('unsupported language') });

    const missing = await rawHttp(stack, 'PUT', '/api/settings/language', { token: user.token, body: {} });
    expectProblem(missing, 400, 'invalid_request');
    expect(missing.body.errors.map((e: any) => e.path)).toEqual(expect.arrayContaining(['targetLanguage', 'nativeLanguage']));

    const signup = await api(stack).POST('/api/auth/signup', { body: { email: 'not-an-email', password: 'short' } });
    expectProblem(signup, 400, 'invalid_request');
    expect(signup.body.errors!.map((e) => e.path)).toEqual(expect.arrayContaining(['email', 'password']));

    const ledger = await api(stack, { token: user.token }).GET('/api/credits/ledger', { params: { query: { limit: 0 } } });
    expectProblem(ledger, 400, 'invalid_request');
    expect(ledger.body.errors).toContainEqual({ path: 'limit', message: expect.any(String) });

    expectProblem(await api(stack, { cookie: user.cookie }).DELETE('/api/tokens/{id}', { params: { path: { id: 'not-a-uuid' } } }), 400, 'invalid_request');
  });

  it('out-of-range cursors and limits → 400, not a database error', async () => {
    for (const query of ['cursor=99999999999999999999999', 'cursor=-1', 'cursor=abc', 'limit=abc', `limit=${LIST_LIMIT_MAX + 1}`, 'limit=1.5']) {
      expectProblem(await rawHttp(stack, 'GET', `/api/credits/ledger?${query}`, { token: user.token }), 400, 'invalid_request');
    }
  });

  it('a duplicate email → 409 email_taken, whatever its case', async () => {
    expectProblem(await api(stack).POST('/api/auth/signup', { body: { email: user.email, password: 'another long password' } }), 409, 'email_taken');
    expectProblem(
      await api(stack).POST('/api/auth/signup', { body: { email: user.email.toUpperCase(), password: 'another long password' } }),
      409,
      'email_taken',
    );
  });

  it('two concurrent sign-ups with one email → one account, one 409', async () => {
    const email = `race-${crypto.randomUUID()}@example.test`;
    const results = await Promise.all([0, 1, 2].map(() => api(stack).POST('/api/auth/signup', { body: { email, password: 'correct horse battery staple' } })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });

  it('a wrong password or unknown email → 401 unauthenticated, with the same detail', async () => {
    const wrong = await api(stack).POST('/api/auth/login', { body: { email: user.email, password: 'not the right password' } });
    expectProblem(wrong, 401, 'unauthenticated');
    const unknown = await api(stack).POST('/api/auth/login', {
      body: { email: `nobody-${crypto.randomUUID()}@example.test`, password: 'not the right password' },
    });
    expectProblem(unknown, 401, 'unauthenticated');
    expect(unknown.body.detail).toBe(wrong.body.detail);
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  it('problems carry the request path as instance, and every answer a request id', async () => {
    const res = await rawHttp(stack, 'GET', '/api/does-not-exist?secret=1', { token: user.token, headers: { 'x-request-id': 'trace-123' } });
    expect(res.body.instance).toBe('/api/does-not-exist');
    expect(res.headers.get('x-request-id')).toBe('trace-123');
  });
});
