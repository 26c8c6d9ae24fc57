import { z } from 'zod';
import { SUPPORTED_LANGUAGES } from '../../domain/languages.ts';
import { getAccount, logIn, logOut, SESSION_TTL_MS, setLanguages, signUp } from '../../services/accounts.ts';
import type { App, AppDeps } from '../deps.ts';
import { requirePrincipal, SESSION_COOKIE } from '../plugins/auth.ts';
import { accountSchema, credentialsSchema, languageSettingsSchema, languagesResponseSchema } from '../schemas/account.ts';
import { AUTHED, problems } from '../schemas/common.ts';

export async function accountRoutes(app: App, { orm, config }: AppDeps) {
  const cookieOptions = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: config.secureCookies, maxAge: SESSION_TTL_MS / 1000 };

  app.post('/api/auth/signup', {
    config: { auth: 'public' },
    schema: { tags: ['account'], summary: 'Create an account and sign in', body: credentialsSchema, response: { 201: accountSchema, ...problems(400, 403, 409, 429) } },
  }, async (request, reply) => {
    const { account, sessionId } = await signUp(orm.em.fork(), request.body.email, request.body.password);
    reply.setCookie(SESSION_COOKIE, sessionId, cookieOptions);
    return reply.code(201).send(account);
  });

  app.post('/api/auth/login', {
    config: { auth: 'public' },
    schema: { tags: ['account'], summary: 'Sign in with email and password', body: credentialsSchema, response: { 200: accountSchema, ...problems(400, 401, 403, 429) } },
  }, async (request, reply) => {
    const { account, sessionId } = await logIn(orm.em.fork(), request.body.email, request.body.password);
    reply.setCookie(SESSION_COOKIE, sessionId, cookieOptions);
    return account;
  });

  app.post('/api/auth/logout', {
    config: { auth: 'session' },
    schema: { tags: ['account'], summary: 'End the page session', response: { 204: z.null(), ...problems(...AUTHED) } },
  }, async (request, reply) => {
    await logOut(orm.em.fork(), requirePrincipal(request).sessionId!);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.code(204).send(null);
  });

  app.get('/api/me', {
    schema: { tags: ['account'], summary: 'The signed-in account', response: { 200: accountSchema, ...problems(...AUTHED) } },
  }, async (request) => getAccount(orm.em.fork(), requirePrincipal(request).userId));

  app.put('/api/settings/language', {
    schema: { tags: ['account'], summary: 'Set the target and native languages', body: languageSettingsSchema, response: { 200: accountSchema, ...problems(...AUTHED) } },
  }, async (request) => setLanguages(orm.em.fork(), requirePrincipal(request).userId, request.body.targetLanguage, request.body.nativeLanguage));

  app.get('/api/languages', {
    config: { auth: 'public' },
    schema: { tags: ['account'], summary: 'Supported languages (BCP 47 tags)', response: { 200: languagesResponseSchema } },
  }, async () => ({ languages: SUPPORTED_LANGUAGES.map((l) => ({ ...l })), sourceOnly: ['auto'] }));
}
