import { z } from 'zod';
import { addressKey } from '../../domain/client-address.ts';
import { rateLimited } from '../../domain/problems.ts';
import { SUPPORTED_LANGUAGES } from '../../domain/languages.ts';
import { changePassword, endAllSessions, getAccount, logIn, logOut, setLanguages, signUp } from './service.ts';
import { hitBucket } from '../../services/rate-limit-store.ts';
import type { App, AppDeps } from '../../http/deps.ts';
import { requirePrincipal } from '../../http/plugins/auth.ts';
import { setRateLimitHeaders } from '../../http/plugins/rate-limit.ts';
import { accountSchema, changePasswordSchema, credentialsSchema, languageSettingsSchema, languagesResponseSchema, sessionsEndedSchema, signOutEverywhereSchema } from './schemas.ts';
import { AUTHED, problems } from '../../http/problem-responses.ts';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from '../../http/session-cookie.ts';

export async function accountRoutes(app: App, { orm, config }: AppDeps) {
  const signupQuota = { limit: config.rateLimit.signupMaxPerHour, periodMs: 3_600_000 };

  app.post('/api/auth/signup', {
    config: { auth: 'public' },
    schema: { tags: ['account'], summary: 'Create an account and sign in', body: credentialsSchema, response: { 201: accountSchema, ...problems(400, 403, 409, 429) } },
  }, async (request, reply) => {
    // Sign-ups have a bucket of their own per client address, shared by every API process.
    const decision = await hitBucket(orm, `signup:${addressKey(request.ip)}`, signupQuota);
    setRateLimitHeaders(reply, decision);
    if (!decision.allowed) throw rateLimited('signup', decision.retryAfterMs);
    const { account, sessionId } = await signUp(orm.em.fork(), request.body.email, request.body.password);
    setSessionCookie(config, reply, sessionId);
    return reply.code(201).send(account);
  });

  app.post('/api/auth/login', {
    config: { auth: 'public' },
    schema: { tags: ['account'], summary: 'Sign in with email and password (a fresh session)', body: credentialsSchema, response: { 200: accountSchema, ...problems(400, 401, 403, 429) } },
  }, async (request, reply) => {
    const { account, sessionId } = await logIn(orm.em.fork(), request.body.email, request.body.password, {
      addressKey: addressKey(request.ip),
      presentedSessionId: readSessionCookie(config, request),
    });
    setSessionCookie(config, reply, sessionId);
    return account;
  });

  app.post('/api/auth/logout', {
    config: { auth: 'session' },
    schema: { tags: ['account'], summary: 'End the page session', response: { 204: z.null(), ...problems(...AUTHED) } },
  }, async (request, reply) => {
    await logOut(orm.em.fork(), requirePrincipal(request).sessionId!);
    clearSessionCookie(config, reply);
    return reply.code(204).send(null);
  });

  app.post('/api/auth/logout-everywhere', {
    config: { auth: 'session' },
    schema: { tags: ['account'], summary: 'End every page session of the account (and, if asked, revoke its tokens)', body: signOutEverywhereSchema, response: { 200: sessionsEndedSchema, ...problems(...AUTHED) } },
  }, async (request, reply) => {
    const ended = await endAllSessions(orm.em.fork(), requirePrincipal(request).userId, request.body);
    clearSessionCookie(config, reply);
    return ended;
  });

  app.post('/api/auth/password', {
    config: { auth: 'session' },
    schema: {
      tags: ['account'], summary: 'Change the password: ends every other session, and this one gets a fresh id', body: changePasswordSchema,
      response: { 200: sessionsEndedSchema, ...problems(...AUTHED) },
    },
  }, async (request, reply) => {
    const { sessionId, ...ended } = await changePassword(orm.em.fork(), requirePrincipal(request).userId, { ...request.body, addressKey: addressKey(request.ip) });
    setSessionCookie(config, reply, sessionId);
    return ended;
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
