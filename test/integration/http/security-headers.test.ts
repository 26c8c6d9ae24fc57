import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { api, rawHttp, type RawOptions } from '../../support/api.ts';

let stack: Stack;
let user: TestUser;
beforeAll(async () => {
  stack = await startStack({ worker: false });
  user = await newUser(stack);
});
afterAll(async () => {
  await stack?.close();
});

/** Whatever a response is — page, JSON, problem, 404 — it may not be sniffed, framed or leak its URL. */
function expectHardened(headers: Headers, what: string) {
  expect(headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(headers.get('referrer-policy'), what).toBe('no-referrer');
  expect(headers.get('x-frame-options'), what).toBe('DENY');
  expect(headers.get('content-security-policy'), what).toMatch(/frame-ancestors 'none'/);
  expect(headers.get('strict-transport-security'), `${what}: no HSTS on a plain-http service`).toBeNull();
}

describe('security headers', () => {
  it('are on the web page, the API reference, the API, its errors and 404s', async () => {
    // Raw: pages, static files, malformed bodies, an unknown route and tRPC, all through one loop.
    const cases: [string, string, RawOptions?][] = [
      ['GET', '/'],
      ['GET', '/library'],
      ['GET', '/favicon.svg'],
      ['GET', '/docs'],
      ['GET', '/docs/static/index.html'],
      ['GET', '/api/openapi.json'],
      ['GET', '/healthz'],
      ['GET', '/api/me', { token: user.token }],
      ['GET', '/api/me'],
      ['GET', '/api/no-such-route'],
      ['PATCH', '/api/me', { token: user.token }],
      ['POST', '/api/auth/login', { rawBody: '{"email":', headers: { 'content-type': 'application/json' } }],
      ['POST', '/api/auth/login', { rawBody: 'x', headers: { 'content-type': 'text/plain' } }],
      ['GET', '/api/me', { headers: { authorization: 'Bearer not-a-token' } }],
      ['GET', '/trpc/account.me', { token: user.token }],
      ['GET', '/trpc/account.me'],
      ['GET', '/%E0%A4%A'],
    ];
    for (const [method, path, options] of cases) {
      const res = await rawHttp(stack, method, path, options);
      expectHardened(res.headers, `${method} ${path} → ${res.status}`);
    }
  });

  it('give JSON answers a CSP that loads nothing, and keep the pages’ own policies', async () => {
    expect((await api(stack, { token: user.token }).GET('/api/me')).headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect((await rawHttp(stack, 'GET', '/')).headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    const docs = (await rawHttp(stack, 'GET', '/docs/static/index.html')).headers.get('content-security-policy')!;
    const scripts = docs.split(';').find((d) => d.trim().startsWith('script-src'));
    expect(scripts?.trim()).toBe("script-src 'self'");
    expect(docs).not.toMatch(/upgrade-insecure-requests|validator\.swagger\.io/);
  });
});

describe('security headers on an https service', () => {
  let https: Stack;
  beforeAll(async () => {
    https = await startStack({ worker: false, env: { PUBLIC_ORIGIN: 'https://capture.example' } });
  });
  afterAll(async () => {
    await https?.close();
  });

  it('add HSTS', async () => {
    expect((await api(https).GET('/healthz')).headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
  });
});
