import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_PREFIX } from '../../../src/domain/limits.ts';
import { TOKEN_LENGTH, tokenLooksValid } from '../../../src/domain/tokens.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { mintToken, newUser } from '../../support/users.ts';
import { sql } from '../../support/helpers.ts';
import { api, bodyOf, expectProblem, expectStatus, rawHttp } from '../../support/api.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ worker: false });
});
afterAll(async () => {
  await stack?.close();
});

describe('personal tokens', () => {
  it('are minted with a recognisable format, and work as bearer credentials', async () => {
    const user = await newUser(stack);
    const minted = await mintToken(stack, user.cookie, { scope: 'read', name: 'reader', expiresInDays: 30 });
    expect(minted.token.startsWith(TOKEN_PREFIX)).toBe(true);
    expect(minted.token).toHaveLength(TOKEN_LENGTH);
    expect(tokenLooksValid(minted.token)).toBe(true);
    expect(minted).toMatchObject({ scope: 'read', name: 'reader', expiresAt: expect.any(String) });
    const me = await api(stack, { token: minted.token }).GET('/api/me');
    expectStatus(me, 200);
    expect(me.body.userId).toBe(user.userId);
  });

  it('are shown once: the list never carries the secret', async () => {
    const user = await newUser(stack);
    const minted = await mintToken(stack, user.cookie, { scope: 'write' });
    for (const credentials of [{ cookie: user.cookie }, { token: minted.token }]) {
      const list = await api(stack, credentials).GET('/api/tokens');
      expectStatus(list, 200);
      expect(list.body.items.map((t) => t.id)).toContain(minted.id);
      for (const item of list.body.items) expect(item).not.toHaveProperty('token');
      expect(list.text).not.toContain(minted.token);
      expect(list.text).not.toContain(user.token);
    }
  });

  it('are stored only as a hash: no column of any token or session row contains the secret', async () => {
    const user = await newUser(stack);
    const minted = await mintToken(stack, user.cookie, { scope: 'write' });
    const sessionId = user.cookie.split('=')[1]!;
    const tokenRows = await sql<{ row: string }>(stack, `SELECT row_to_json(t)::text AS row FROM api_tokens t WHERE user_id = ?`, [user.userId]);
    const sessionRows = await sql<{ row: string }>(stack, `SELECT row_to_json(s)::text AS row FROM sessions s WHERE user_id = ?`, [user.userId]);
    expect(tokenRows).toHaveLength(2);
    expect(sessionRows).toHaveLength(1);
    for (const secret of [minted.token, user.token]) {
      const randomPart = secret.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + 43);
      for (const { row } of tokenRows) {
        expect(row).not.toContain(secret);
        expect(row).not.toContain(randomPart);
      }
    }
    expect(sessionRows[0]!.row).not.toContain(sessionId);
  });

  it('record lastUsedAt once used', async () => {
    const user = await newUser(stack);
    const minted = await mintToken(stack, user.cookie, { scope: 'read' });
    const before = bodyOf(await api(stack, { cookie: user.cookie }).GET('/api/tokens'), 200);
    expect(before.items.find((t) => t.id === minted.id)!.lastUsedAt).toBeNull();
    const startedAt = Date.now();
    expect((await api(stack, { token: minted.token }).GET('/api/credits')).status).toBe(200);
    const after = bodyOf(await api(stack, { cookie: user.cookie }).GET('/api/tokens'), 200);
    const lastUsedAt = after.items.find((t) => t.id === minted.id)!.lastUsedAt;
    expect(lastUsedAt).toEqual(expect.any(String));
    expect(Math.abs(new Date(lastUsedAt!).getTime() - startedAt)).toBeLessThan(60_000);
  });

  it('cannot mint or revoke tokens, nor end the page session (403 forbidden)', async () => {
    const user = await newUser(stack);
    const other = await mintToken(stack, user.cookie, { scope: 'write' });
    expectProblem(await api(stack, { token: user.token }).POST('/api/tokens', { body: { name: 'x', scope: 'write' } }), 403, 'forbidden');
    expectProblem(await api(stack, { token: user.token }).DELETE('/api/tokens/{id}', { params: { path: { id: other.id } } }), 403, 'forbidden');
    expectProblem(await api(stack, { token: user.token }).POST('/api/auth/logout'), 403, 'forbidden');
    const [{ count }] = (await sql<{ count: string }>(stack, `SELECT count(*)::text AS count FROM api_tokens WHERE user_id = ? AND revoked_at IS NULL`, [
      user.userId,
    ])) as [{ count: string }];
    expect(count).toBe('2');
  });

  it('are rejected with 401 once revoked, and the list says when', async () => {
    const user = await newUser(stack);
    const minted = await mintToken(stack, user.cookie, { scope: 'write' });
    expect((await api(stack, { token: minted.token }).GET('/api/me')).status).toBe(200);
    expect((await api(stack, { cookie: user.cookie }).DELETE('/api/tokens/{id}', { params: { path: { id: minted.id } } })).status).toBe(204);
    expectProblem(await api(stack, { token: minted.token }).GET('/api/me'), 401, 'unauthenticated');
    const list = bodyOf(await api(stack, { cookie: user.cookie }).GET('/api/tokens'), 200);
    expect(list.items.find((t) => t.id === minted.id)!.revokedAt).toEqual(expect.any(String));
    // Revoking again is harmless; the user's other token is untouched.
    expect((await api(stack, { cookie: user.cookie }).DELETE('/api/tokens/{id}', { params: { path: { id: minted.id } } })).status).toBe(204);
    expect((await api(stack, { token: user.token }).GET('/api/me')).status).toBe(200);
  });

  it('are rejected with 401 once expired', async () => {
    const user = await newUser(stack);
    const minted = await mintToken(stack, user.cookie, { scope: 'write', expiresInDays: 1 });
    expect((await api(stack, { token: minted.token }).GET('/api/me')).status).toBe(200);
    await sql(stack, `UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = ?`, [minted.id]);
    expectProblem(await api(stack, { token: minted.token }).GET('/api/me'), 401, 'unauthenticated');
  });

  it('of another user are indistinguishable from missing ones (404)', async () => {
    const alice = await newUser(stack);
    const bob = await newUser(stack);
    const bobs = await mintToken(stack, bob.cookie, { scope: 'write' });
    expectProblem(await api(stack, { cookie: alice.cookie }).DELETE('/api/tokens/{id}', { params: { path: { id: bobs.id } } }), 404, 'not_found');
    expectProblem(await api(stack, { cookie: alice.cookie }).DELETE('/api/tokens/{id}', { params: { path: { id: crypto.randomUUID() } } }), 404, 'not_found');
    expect((await api(stack, { token: bobs.token }).GET('/api/me')).status).toBe(200);
    const list = bodyOf(await api(stack, { cookie: alice.cookie }).GET('/api/tokens'), 200);
    expect(list.items.map((t) => t.id)).not.toContain(bobs.id);
  });

  it('reject invalid creation input with 400', async () => {
    const user = await newUser(stack);
    // Raw: a typed client cannot send an unknown scope.
    for (const body of [
      { name: '', scope: 'read' },
      { name: 'x', scope: 'admin' },
      { name: 'x', scope: 'read', expiresInDays: 0 },
      { name: 'x', scope: 'read', expiresInDays: 1.5 },
      { name: 'nul\u0000', scope: 'read' },
      { name: 'lone \udc00', scope: 'read' },
    ]) {
      const res = await rawHttp(stack, 'POST', '/api/tokens', { cookie: user.cookie, body });
      expectProblem(res, 400, 'invalid_request');
      expect(res.body.errors.length).toBeGreaterThan(0);
    }
  });
});

describe('page sessions', () => {
  it('end at logout: the cookie is cleared and no longer accepted', async () => {
    const user = await newUser(stack);
    const res = await api(stack, { cookie: user.cookie }).POST('/api/auth/logout');
    expect(res.status).toBe(204);
    expect(res.headers.get('set-cookie')).toMatch(/lcs_session=;/);
    expectProblem(await api(stack, { cookie: user.cookie }).GET('/api/me'), 401, 'unauthenticated');
    // Tokens outlive the page session.
    expect((await api(stack, { token: user.token }).GET('/api/me')).status).toBe(200);
  });

  it('are set as HttpOnly, SameSite=Lax cookies at login', async () => {
    const user = await newUser(stack);
    const login = await api(stack).POST('/api/auth/login', { body: { email: user.email, password: user.password } });
    expect(login.status).toBe(200);
    const setCookie = login.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^lcs_session=[^;]+;/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    const cookie = setCookie.split(';')[0]!;
    expect(bodyOf(await api(stack, { cookie }).GET('/api/me'), 200).email).toBe(user.email);
  });
});
