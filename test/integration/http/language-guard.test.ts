import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Http, type Stack } from '../../support/stack.ts';
import { newUser } from '../../support/users.ts';
import { guarded, hasOperation } from '../../support/helpers.ts';
import { expectProblem } from '../../support/api.ts';

let stack: Stack;
let http: Http;
beforeAll(async () => { stack = await startStack({ worker: false }); http = guarded(stack.http); });
afterAll(async () => { await stack?.close(); });

/** Capture, translate and work routes, each with a body that would otherwise be accepted. */
const GUARDED: [string, unknown][] = [
  ['/api/library', { text: 'a piece of cake' }],
  ['/api/sentences', { original_text: 'Ich lerne Englisch.' }],
  ['/api/immersive-translate', { request_id: 'req-1', target_language: 'fr', source_language: 'en', items: [{ id: '1', text: 'Hello' }] }],
  ['/api/work', { prompt: 'Je voudrais un café.' }],
];

/** The routes of GUARDED that exist; POST /api/library (the reference) when none does yet. */
function presentRoutes(doc: any): [string, unknown][] {
  const present = GUARDED.filter(([path]) => hasOperation(doc, 'POST', path));
  return present.length > 0 ? present : [GUARDED[0]!];
}

describe('428 language_setup_required', () => {
  it('on capture, translate and work routes until both languages are set', async () => {
    const routes = presentRoutes(stack.app.swagger());
    const user = await newUser(stack, { languages: null });
    for (const [path, body] of routes) {
      expectProblem(await http('POST', path, { token: user.token, body }), 428, 'language_setup_required');
      expectProblem(await http('POST', path, { cookie: user.cookie, body }), 428, 'language_setup_required');
    }
    // Nothing was charged on the way.
    expect((await http('GET', '/api/credits', { token: user.token })).body.balance).toBe(500);
  });

  it('ends once languages are set', async () => {
    const routes = presentRoutes(stack.app.swagger());
    const user = await newUser(stack, { languages: null });
    expect((await http('PUT', '/api/settings/language', { token: user.token, body: { targetLanguage: 'en', nativeLanguage: 'fr' } })).status).toBe(200);
    for (const [path] of routes) {
      // An empty body: validation answers, the guard no longer does.
      expectProblem(await http('POST', path, { token: user.token, body: {} }), 400, 'invalid_request');
    }
  });

  it('does not guard account, token and credit routes', async () => {
    const user = await newUser(stack, { languages: null });
    const me = await http('GET', '/api/me', { token: user.token });
    expect(me.body).toMatchObject({ targetLanguage: null, nativeLanguage: null });
    expect((await http('GET', '/api/credits', { token: user.token })).status).toBe(200);
    expect((await http('GET', '/api/tokens', { token: user.token })).status).toBe(200);
  });
});
