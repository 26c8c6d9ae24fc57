import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken } from '../../../src/domain/tokens.ts';
import { startStack } from '../../support/stack.ts';
import { mintToken, newUser, type TestUser } from '../../support/users.ts';
import { authenticatedOperations, sql, withOneCharChanged } from '../../support/helpers.ts';
import { api, expectProblem, rawHttp } from '../../support/api.ts';

// The matrix is built from the OpenAPI document, so every route added later is covered too; its
// operations are known only at run time, so they are called through the raw client.
const stack = await startStack({ worker: false });
const doc = (await rawHttp(stack, 'GET', '/api/openapi.json')).body;
const operations = authenticatedOperations(doc);
afterAll(async () => {
  await stack.close();
});

/** Routes only a page session may call: a token gets 403 `forbidden` there. */
const SESSION_ONLY = new Set([
  'POST /api/auth/logout',
  'POST /api/auth/logout-everywhere',
  'POST /api/auth/password',
  'POST /api/tokens',
  'DELETE /api/tokens/{id}',
]);

let user: TestUser;
let readToken: string;
const bad: Record<string, Record<string, string>> = {};

beforeAll(async () => {
  user = await newUser(stack);
  readToken = (await mintToken(stack, user.cookie, { scope: 'read' })).token;
  const expired = await mintToken(stack, user.cookie, { scope: 'write', expiresInDays: 1 });
  await sql(stack, `UPDATE api_tokens SET expires_at = now() - interval '1 minute' WHERE id = ?`, [expired.id]);
  const revoked = await mintToken(stack, user.cookie, { scope: 'write' });
  expect((await api(stack, { cookie: user.cookie }).DELETE('/api/tokens/{id}', { params: { path: { id: revoked.id } } })).status).toBe(204);

  Object.assign(bad, {
    'missing credentials': {},
    'a bare "Bearer"': { authorization: 'Bearer' },
    'a Basic scheme': { authorization: 'Basic x' },
    'a malformed bearer': { authorization: 'Bearer not-a-token' },
    'a wrong checksum': { authorization: `Bearer ${withOneCharChanged(user.token)}` },
    'a never-issued token': { authorization: `Bearer ${generateToken()}` },
    'an expired token': { authorization: `Bearer ${expired.token}` },
    'a revoked token': { authorization: `Bearer ${revoked.token}` },
    'an unknown session cookie': { cookie: 'lcs_session=not-a-session' },
  });
});

describe('the document lists the foundation routes', () => {
  it('covers every authenticated foundation route and skips the public ones', () => {
    const listed = operations.map((o) => `${o.method} ${o.template}`);
    expect(listed).toEqual(
      expect.arrayContaining([
        'GET /api/me',
        'PUT /api/settings/language',
        'GET /api/tokens',
        'POST /api/tokens',
        'DELETE /api/tokens/{id}',
        'GET /api/credits',
        'GET /api/credits/ledger',
        'POST /api/auth/logout',
      ]),
    );
    for (const open of ['GET /api/languages', 'GET /healthz', 'GET /readyz', 'POST /api/auth/signup', 'POST /api/auth/login']) {
      expect(listed).not.toContain(open);
    }
  });
});

describe.each(operations.map((o) => [`${o.method} ${o.template}`, o] as const))('%s', (_name, { method, path, template }) => {
  it.each([
    'missing credentials',
    'a bare "Bearer"',
    'a Basic scheme',
    'a malformed bearer',
    'a wrong checksum',
    'a never-issued token',
    'an expired token',
    'a revoked token',
    'an unknown session cookie',
  ])('401 with %s', async (name) => {
    expectProblem(await rawHttp(stack, method, path, { headers: bad[name] }), 401, 'unauthenticated');
  });

  if (method === 'GET') {
    it('accepts a read token', async () => {
      expect((await rawHttp(stack, method, path, { token: readToken })).status).not.toBeOneOf([401, 403]);
    });
  } else {
    it('403 read_only_token for a read token', async () => {
      expectProblem(await rawHttp(stack, method, path, { token: readToken }), 403, 'read_only_token');
    });
  }

  if (SESSION_ONLY.has(`${method} ${template}`)) {
    it('403 forbidden for a write token (page session only)', async () => {
      expectProblem(await rawHttp(stack, method, path, { token: user.token, body: { name: 'minted by a token', scope: 'write' } }), 403, 'forbidden');
    });
  } else {
    it('accepts a write token', async () => {
      expect((await rawHttp(stack, method, path, { token: user.token })).status).not.toBeOneOf([401, 403]);
    });
  }
});
