import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser } from '../../support/users.ts';
import { api, bodyOf, expectProblem, expectStatus } from '../../support/api.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ worker: false });
});
afterAll(async () => {
  await stack?.close();
});

const FOREIGN = 'https://evil.example';
const languages = { targetLanguage: 'en', nativeLanguage: 'de' } as const;

// `origin: null` sends the cookie with no Origin at all.
describe('cookie-authenticated writes', () => {
  it('without an Origin header are refused (403 origin_not_allowed)', async () => {
    const user = await newUser(stack);
    expectProblem(await api(stack, { cookie: user.cookie, origin: null }).PUT('/api/settings/language', { body: languages }), 403, 'origin_not_allowed');
    expectProblem(
      await api(stack, { cookie: user.cookie, origin: null }).POST('/api/tokens', { body: { name: 'x', scope: 'write' } }),
      403,
      'origin_not_allowed',
    );
    expectProblem(await api(stack, { cookie: user.cookie, origin: null }).POST('/api/auth/logout'), 403, 'origin_not_allowed');
    // Nothing happened: languages unchanged, session still valid.
    expect(bodyOf(await api(stack, { cookie: user.cookie, origin: null }).GET('/api/me'), 200).nativeLanguage).toBe('fr');
  });

  it('from a foreign Origin are refused, including the opaque "null" origin', async () => {
    const user = await newUser(stack);
    for (const origin of [FOREIGN, 'null', `${stack.baseUrl}.evil.example`]) {
      expectProblem(await api(stack, { cookie: user.cookie, origin }).PUT('/api/settings/language', { body: languages }), 403, 'origin_not_allowed');
    }
    expectProblem(
      await api(stack, { cookie: user.cookie, origin: FOREIGN }).POST('/api/tokens', { body: { name: 'x', scope: 'write' } }),
      403,
      'origin_not_allowed',
    );
    const id = bodyOf(await api(stack, { cookie: user.cookie }).GET('/api/tokens'), 200).items[0]!.id;
    expectProblem(
      await api(stack, { cookie: user.cookie, origin: FOREIGN }).DELETE('/api/tokens/{id}', { params: { path: { id } } }),
      403,
      'origin_not_allowed',
    );
    expect((await api(stack, { token: user.token }).GET('/api/me')).status).toBe(200);
  });

  it('from the service’s own Origin are accepted', async () => {
    const user = await newUser(stack);
    const res = await api(stack, { cookie: user.cookie, origin: stack.baseUrl }).PUT('/api/settings/language', { body: languages });
    expectStatus(res, 200);
    expect(res.body.nativeLanguage).toBe('de');
  });

  it('GETs with a cookie need no Origin', async () => {
    const user = await newUser(stack);
    expect((await api(stack, { cookie: user.cookie, origin: null }).GET('/api/me')).status).toBe(200);
  });
});

describe('bearer-authenticated writes', () => {
  it('need no Origin header', async () => {
    const user = await newUser(stack);
    const res = await api(stack, { token: user.token }).PUT('/api/settings/language', { body: languages });
    expectStatus(res, 200);
  });
});

describe('sign-up and login', () => {
  it('from a foreign Origin are refused (login CSRF)', async () => {
    const user = await newUser(stack);
    const email = `user-${randomUUID()}@example.test`;
    const signup = await api(stack, { origin: FOREIGN }).POST('/api/auth/signup', { body: { email, password: 'correct horse battery staple' } });
    expectProblem(signup, 403, 'origin_not_allowed');
    expect(signup.headers.get('set-cookie')).toBeNull();
    const login = await api(stack, { origin: FOREIGN }).POST('/api/auth/login', { body: { email: user.email, password: user.password } });
    expectProblem(login, 403, 'origin_not_allowed');
    expect(login.headers.get('set-cookie')).toBeNull();
    // The refused sign-up created no account.
    expectProblem(await api(stack).POST('/api/auth/login', { body: { email, password: 'correct horse battery staple' } }), 401, 'unauthenticated');
  });

  it('from the own Origin, or with no Origin (non-browser clients), are accepted', async () => {
    const user = await newUser(stack);
    expect((await api(stack, { origin: stack.baseUrl }).POST('/api/auth/login', { body: { email: user.email, password: user.password } })).status).toBe(200);
    expect((await api(stack).POST('/api/auth/login', { body: { email: user.email, password: user.password } })).status).toBe(200);
  });
});

describe('a configured browser-extension origin', () => {
  const EXTENSION = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';
  let withExtension: Stack;
  beforeAll(async () => {
    withExtension = await startStack({ worker: false, env: { ALLOWED_ORIGINS: EXTENSION } });
  });
  afterAll(async () => {
    await withExtension?.close();
  });

  it('is accepted for cookie-authenticated writes, and does not let the opaque "null" origin in', async () => {
    const user = await newUser(withExtension);
    // A sandboxed iframe, a data: URL or a redirected request on any site sends `Origin: null`.
    const fromNull = api(withExtension, { cookie: user.cookie, origin: 'null' });
    expectProblem(await fromNull.PUT('/api/settings/language', { body: { targetLanguage: 'en', nativeLanguage: 'es' } }), 403, 'origin_not_allowed');
    expectProblem(
      await api(withExtension, { origin: 'null' }).POST('/api/auth/login', { body: { email: user.email, password: user.password } }),
      403,
      'origin_not_allowed',
    );
    const fromExtension = await api(withExtension, { cookie: user.cookie, origin: EXTENSION }).PUT('/api/settings/language', { body: languages });
    expectStatus(fromExtension, 200);
    expect(bodyOf(await api(withExtension, { token: user.token }).GET('/api/me'), 200).nativeLanguage).toBe('de');
  });
});
