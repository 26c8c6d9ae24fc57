import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser } from '../../support/users.ts';
import { hasOperation } from '../../support/helpers.ts';
import { api, bodyOf, expectProblem, rawHttp } from '../../support/api.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ worker: false });
});
afterAll(async () => {
  await stack?.close();
});

/** Capture, translate and work routes, each with a body that would otherwise be accepted (sent raw: the routes are found at run time). */
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
      expectProblem(await rawHttp(stack, 'POST', path, { token: user.token, body }), 428, 'language_setup_required');
      expectProblem(await rawHttp(stack, 'POST', path, { cookie: user.cookie, body }), 428, 'language_setup_required');
    }
    // Nothing was charged on the way.
    expect(bodyOf(await api(stack, { token: user.token }).GET('/api/credits'), 200).balance).toBe(500);
  });

  it('ends once languages are set', async () => {
    const routes = presentRoutes(stack.app.swagger());
    const user = await newUser(stack, { languages: null });
    expect((await api(stack, { token: user.token }).PUT('/api/settings/language', { body: { targetLanguage: 'en', nativeLanguage: 'fr' } })).status).toBe(200);
    for (const [path] of routes) {
      // An empty body: validation answers, the guard no longer does.
      expectProblem(await rawHttp(stack, 'POST', path, { token: user.token, body: {} }), 400, 'invalid_request');
    }
  });

  it('does not guard account, token and credit routes', async () => {
    const user = await newUser(stack, { languages: null });
    const me = await api(stack, { token: user.token }).GET('/api/me');
    expect(me.body).toMatchObject({ targetLanguage: null, nativeLanguage: null });
    expect((await api(stack, { token: user.token }).GET('/api/credits')).status).toBe(200);
    expect((await api(stack, { token: user.token }).GET('/api/tokens')).status).toBe(200);
  });
});
