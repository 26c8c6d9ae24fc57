import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Http, type Stack } from '../../support/stack.ts';
import { newUser } from '../../support/users.ts';
import { guarded } from '../../support/helpers.ts';
import { expectProblem } from '../../support/api.ts';

let stack: Stack;
let http: Http;
beforeAll(async () => { stack = await startStack({ worker: false }); http = guarded(stack.http); });
afterAll(async () => { await stack?.close(); });

const FOREIGN = 'https://evil.example';
const languages = { targetLanguage: 'en', nativeLanguage: 'de' };

// `headers: { cookie }` (rather than the helper's `cookie` option) sends no Origin at all.
describe('cookie-authenticated writes', () => {
  it('without an Origin header are refused (403 origin_not_allowed)', async () => {
    const user = await newUser(stack);
    expectProblem(await http('PUT', '/api/settings/language', { headers: { cookie: user.cookie }, body: languages }), 403, 'origin_not_allowed');
    expectProblem(await http('POST', '/api/tokens', { headers: { cookie: user.cookie }, body: { name: 'x', scope: 'write' } }), 403, 'origin_not_allowed');
    expectProblem(await http('POST', '/api/auth/logout', { headers: { cookie: user.cookie } }), 403, 'origin_not_allowed');
    // Nothing happened: languages unchanged, session still valid.
    expect((await http('GET', '/api/me', { headers: { cookie: user.cookie } })).body.nativeLanguage).toBe('fr');
  });

  it('from a foreign Origin are refused, including the opaque "null" origin', async () => {
    const user = await newUser(stack);
    for (const origin of [FOREIGN, 'null', `${stack.baseUrl}.evil.example`]) {
      expectProblem(await http('PUT', '/api/settings/language', { headers: { cookie: user.cookie, origin }, body: languages }), 403, 'origin_not_allowed');
    }
    expectProblem(await http('POST', '/api/tokens', { headers: { cookie: user.cookie, origin: FOREIGN }, body: { name: 'x', scope: 'write' } }), 403, 'origin_not_allowed');
    const id = (await http('GET', '/api/tokens', { cookie: user.cookie })).body.items[0].id;
    expectProblem(await http('DELETE', `/api/tokens/${id}`, { headers: { cookie: user.cookie, origin: FOREIGN } }), 403, 'origin_not_allowed');
    expect((await http('GET', '/api/me', { token: user.token })).status).toBe(200);
  });

  it('from the service’s own Origin are accepted', async () => {
    const user = await newUser(stack);
    const res = await http('PUT', '/api/settings/language', { headers: { cookie: user.cookie, origin: stack.baseUrl }, body: languages });
    expect(res.status, res.text).toBe(200);
    expect(res.body.nativeLanguage).toBe('de');
  });

  it('GETs with a cookie need no Origin', async () => {
    const user = await newUser(stack);
    expect((await http('GET', '/api/me', { headers: { cookie: user.cookie } })).status).toBe(200);
  });
});

describe('bearer-authenticated writes', () => {
  it('need no Origin header', async () => {
    const user = await newUser(stack);
    const res = await http('PUT', '/api/settings/language', { token: user.token, body: languages });
    expect(res.status, res.text).toBe(200);
  });
});

describe('sign-up and login', () => {
  it('from a foreign Origin are refused (login CSRF)', async () => {
    const user = await newUser(stack);
    const email = `user-${randomUUID()}@example.test`;
    const signup = await http('POST', '/api/auth/signup', { headers: { origin: FOREIGN }, body: { email, password: 'correct horse battery staple' } });
    expectProblem(signup, 403, 'origin_not_allowed');
    expect(signup.headers.get('set-cookie')).toBeNull();
    const login = await http('POST', '/api/auth/login', { headers: { origin: FOREIGN }, body: { email: user.email, password: user.password } });
    expectProblem(login, 403, 'origin_not_allowed');
    expect(login.headers.get('set-cookie')).toBeNull();
    // The refused sign-up created no account.
    expectProblem(await http('POST', '/api/auth/login', { body: { email, password: 'correct horse battery staple' } }), 401, 'unauthenticated');
  });

  it('from the own Origin, or with no Origin (non-browser clients), are accepted', async () => {
    const user = await newUser(stack);
    expect((await http('POST', '/api/auth/login', { headers: { origin: stack.baseUrl }, body: { email: user.email, password: user.password } })).status).toBe(200);
    expect((await http('POST', '/api/auth/login', { body: { email: user.email, password: user.password } })).status).toBe(200);
  });
});

describe('a configured browser-extension origin', () => {
  const EXTENSION = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';
  let withExtension: Stack;
  beforeAll(async () => { withExtension = await startStack({ worker: false, env: { ALLOWED_ORIGINS: EXTENSION } }); });
  afterAll(async () => { await withExtension?.close(); });

  it('is accepted for cookie-authenticated writes, and does not let the opaque "null" origin in', async () => {
    const client = guarded(withExtension.http);
    const user = await newUser(withExtension);
    // A sandboxed iframe, a data: URL or a redirected request on any site sends `Origin: null`.
    expectProblem(await client('PUT', '/api/settings/language', { headers: { cookie: user.cookie, origin: 'null' }, body: { targetLanguage: 'en', nativeLanguage: 'es' } }), 403, 'origin_not_allowed');
    expectProblem(await client('POST', '/api/auth/login', { headers: { origin: 'null' }, body: { email: user.email, password: user.password } }), 403, 'origin_not_allowed');
    const fromExtension = await client('PUT', '/api/settings/language', { headers: { cookie: user.cookie, origin: EXTENSION }, body: languages });
    expect(fromExtension.status, fromExtension.text).toBe(200);
    expect((await client('GET', '/api/me', { token: user.token })).body.nativeLanguage).toBe('de');
  });
});
