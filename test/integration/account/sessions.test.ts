import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { api, expectProblem, rawHttp } from '../../support/api.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ worker: false });
});
afterAll(async () => {
  await stack?.close();
});

const cookieOf = (res: { headers: Headers }) => res.headers.get('set-cookie')?.split(';')[0];

async function logIn(user: Pick<TestUser, 'email' | 'password'>, headers: Record<string, string> = {}) {
  const res = await api(stack).POST('/api/auth/login', { body: { email: user.email, password: user.password }, headers });
  expect(res.status, res.text).toBe(200);
  return cookieOf(res)!;
}

const me = (cookie: string) => api(stack).GET('/api/me', { headers: { cookie } });

describe('logging in', () => {
  it('issues a fresh session id and ends the one the client presented (no fixation)', async () => {
    const user = await newUser(stack);
    const fresh = await logIn(user, { cookie: user.cookie });
    expect(fresh).not.toBe(user.cookie);
    expect((await me(fresh)).status).toBe(200);
    // A session id planted in the browser before login is worthless after it.
    expectProblem(await me(user.cookie), 401, 'unauthenticated');
  });
});

describe('signing out everywhere', () => {
  it('ends every session of the account, keeps tokens unless asked, and is session-only', async () => {
    const user = await newUser(stack);
    const other = await logIn(user);
    expectProblem(await api(stack, { token: user.token }).POST('/api/auth/logout-everywhere', { body: {} }), 403, 'forbidden');
    const res = await api(stack, { cookie: user.cookie }).POST('/api/auth/logout-everywhere');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ sessionsEnded: 2, tokensRevoked: 0 });
    expect(res.headers.get('set-cookie')).toMatch(/lcs_session=;/);
    expectProblem(await me(user.cookie), 401, 'unauthenticated');
    expectProblem(await me(other), 401, 'unauthenticated');
    expect((await api(stack, { token: user.token }).GET('/api/me')).status).toBe(200);
  });

  it('revokes every token too when asked', async () => {
    const user = await newUser(stack);
    const res = await api(stack, { cookie: user.cookie }).POST('/api/auth/logout-everywhere', { body: { revokeTokens: true } });
    expect(res.body).toEqual({ sessionsEnded: 1, tokensRevoked: 1 });
    expectProblem(await api(stack, { token: user.token }).GET('/api/me'), 401, 'unauthenticated');
  });

  it('works over tRPC with the same rules', async () => {
    const user = await newUser(stack);
    const other = await logIn(user);
    expect((await rawHttp(stack, 'POST', '/trpc/account.logoutEverywhere', { token: user.token, body: {} })).status).toBe(403);
    const res = await rawHttp(stack, 'POST', '/trpc/account.logoutEverywhere', { cookie: user.cookie, body: {} });
    expect(res.status, res.text).toBe(200);
    expect(res.body.result.data).toEqual({ sessionsEnded: 2, tokensRevoked: 0 });
    expect(res.headers.get('set-cookie')).toMatch(/lcs_session=;/);
    expectProblem(await me(other), 401, 'unauthenticated');
  });
});

describe('changing the password', () => {
  const newPassword = 'a brand new passphrase';

  it('needs the current password, ends the other sessions and renews this one', async () => {
    const user = await newUser(stack);
    const other = await logIn(user);
    expectProblem(
      await api(stack, { cookie: user.cookie }).POST('/api/auth/password', { body: { currentPassword: 'not the password', newPassword } }),
      403,
      'wrong_password',
    );
    expectProblem(
      await api(stack, { cookie: user.cookie }).POST('/api/auth/password', { body: { currentPassword: user.password, newPassword: 'short' } }),
      400,
      'invalid_request',
    );
    expectProblem(
      await api(stack, { token: user.token }).POST('/api/auth/password', { body: { currentPassword: user.password, newPassword } }),
      403,
      'forbidden',
    );

    const res = await api(stack, { cookie: user.cookie }).POST('/api/auth/password', { body: { currentPassword: user.password, newPassword } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ sessionsEnded: 2, tokensRevoked: 0 });
    const renewed = cookieOf(res)!;
    expect((await me(renewed)).status).toBe(200);
    expectProblem(await me(user.cookie), 401, 'unauthenticated');
    expectProblem(await me(other), 401, 'unauthenticated');
    // Tokens stay (the caller was told, and may revoke them); the old password is gone.
    expect((await api(stack, { token: user.token }).GET('/api/me')).status).toBe(200);
    expectProblem(await api(stack).POST('/api/auth/login', { body: { email: user.email, password: user.password } }), 401, 'unauthenticated');
    expect((await api(stack).POST('/api/auth/login', { body: { email: user.email, password: newPassword } })).status).toBe(200);
  });

  it('works over tRPC, setting the renewed cookie, and can revoke tokens', async () => {
    const user = await newUser(stack);
    const wrong = await rawHttp(stack, 'POST', '/trpc/account.changePassword', {
      cookie: user.cookie,
      body: { currentPassword: 'not the password', newPassword },
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.data.problem.code).toBe('wrong_password');
    const res = await rawHttp(stack, 'POST', '/trpc/account.changePassword', {
      cookie: user.cookie,
      body: { currentPassword: user.password, newPassword, revokeTokens: true },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.result.data).toEqual({ sessionsEnded: 1, tokensRevoked: 1 });
    expect((await me(cookieOf(res)!)).status).toBe(200);
    expectProblem(await me(user.cookie), 401, 'unauthenticated');
    expectProblem(await api(stack, { token: user.token }).GET('/api/me'), 401, 'unauthenticated');
  });
});

describe('on an https service', () => {
  let https: Stack;
  beforeAll(async () => {
    https = await startStack({ worker: false, env: { PUBLIC_ORIGIN: 'https://capture.example' } });
  });
  afterAll(async () => {
    await https?.close();
  });

  it('the session cookie carries the __Host- prefix, Secure, Path=/ and no Domain', async () => {
    const email = `user-${randomUUID()}@example.test`;
    const signup = await api(https).POST('/api/auth/signup', { body: { email, password: 'correct horse battery staple' } });
    expect(signup.status, signup.text).toBe(201);
    const setCookie = signup.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^__Host-lcs_session=[^;]+;/);
    expect(setCookie).toMatch(/; Secure/i);
    expect(setCookie).toMatch(/; Path=\/(;|$)/);
    expect(setCookie).not.toMatch(/Domain=/i);
    const cookie = cookieOf(signup)!;
    expect((await api(https).GET('/api/me', { headers: { cookie } })).status).toBe(200);
    // The unprefixed name means nothing there.
    expectProblem(await api(https).GET('/api/me', { headers: { cookie: cookie.replace('__Host-', '') } }), 401, 'unauthenticated');
    expect((await rawHttp(https, 'GET', '/api/openapi.json')).body.components.securitySchemes.session.name).toBe('__Host-lcs_session');
  });
});
