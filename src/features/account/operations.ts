import { z } from 'zod';
import { addressKey } from '../../domain/client-address.ts';
import { SUPPORTED_LANGUAGES } from '../../domain/languages.ts';
import { rateLimited } from '../../domain/problems.ts';
import { defineOperation, noInput } from '../../http/operation.ts';
import { setRateLimitHeaders } from '../../http/rate-limit-headers.ts';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from './session-cookie.ts';
import { hitBucket } from '../../services/rate-limit-store.ts';
import {
  accountSchema,
  changePasswordSchema,
  createdTokenSchema,
  createTokenSchema,
  credentialsSchema,
  languageSettingsSchema,
  languagesResponseSchema,
  loginSchema,
  meSchema,
  sessionsEndedSchema,
  signOutEverywhereSchema,
  tokenIdSchema,
  tokenListSchema,
} from './schemas.ts';
import { changePassword, endAllSessions, getAccount, logIn, logOut, setLanguages, signUp } from './service.ts';
import { createToken, listTokens, revokeToken } from './tokens.ts';
import { whereTextGoes } from '../../model/where-text-goes.ts';

const tag = 'account';

/** Signing in and out: they set or clear the page session cookie, on REST and tRPC alike. */
export const signInOperations = {
  signup: defineOperation({
    tag,
    summary: 'Create an account and sign in',
    auth: 'public',
    input: credentialsSchema,
    output: accountSchema,
    rest: { method: 'POST', path: '/api/auth/signup', status: 201, problems: [400, 403, 409, 429] },
    async handler(ctx, { email, password }) {
      const { config, request, reply } = ctx;
      // Sign-ups have a bucket of their own per client address, shared by every API process.
      const decision = await hitBucket(ctx.em, `signup:${addressKey(request.ip)}`, { limit: config.rateLimit.signupMaxPerHour, periodMs: 3_600_000 });
      setRateLimitHeaders(reply, decision);
      if (!decision.allowed) throw rateLimited('signup', decision.retryAfterMs);
      const { account, sessionId } = await signUp(ctx, email, password);
      setSessionCookie(config, reply, sessionId);
      return account;
    },
  }),
  login: defineOperation({
    tag,
    summary: 'Sign in with email and password (a fresh session)',
    auth: 'public',
    input: loginSchema,
    output: accountSchema,
    rest: { method: 'POST', path: '/api/auth/login', problems: [400, 401, 403, 429] },
    async handler(ctx, { email, password }) {
      const { config, request, reply } = ctx;
      const { account, sessionId } = await logIn(ctx, email, password, {
        addressKey: addressKey(request.ip),
        presentedSessionId: readSessionCookie(config, request),
      });
      setSessionCookie(config, reply, sessionId);
      return account;
    },
  }),
  logout: defineOperation({
    tag,
    summary: 'End the page session',
    auth: 'session',
    input: noInput,
    output: z.void(),
    rest: { method: 'POST', path: '/api/auth/logout', status: 204 },
    async handler(ctx) {
      await logOut(ctx, ctx.principal.sessionId!);
      clearSessionCookie(ctx.config, ctx.reply);
    },
  }),
};

/** The account and its personal tokens (tRPC `account.*`). */
export const accountOperations = {
  me: defineOperation({
    tag,
    summary: 'The signed-in account',
    auth: 'read',
    input: noInput,
    output: meSchema,
    rest: { method: 'GET', path: '/api/me' },
    handler: async (ctx) => ({
      ...(await getAccount(ctx, ctx.principal.userId)),
      access: ctx.principal.via === 'session' ? ('session' as const) : ctx.principal.scope,
      languageModel: whereTextGoes(ctx.config.model),
    }),
  }),
  setLanguages: defineOperation({
    tag,
    summary: 'Set the target and native languages',
    auth: 'write',
    input: languageSettingsSchema,
    output: accountSchema,
    rest: { method: 'PUT', path: '/api/settings/language' },
    handler: (ctx, { targetLanguage, nativeLanguage }) => setLanguages(ctx, ctx.principal.userId, targetLanguage, nativeLanguage),
  }),
  languages: defineOperation({
    tag,
    summary: 'Supported languages (BCP 47 tags)',
    auth: 'public',
    input: noInput,
    output: languagesResponseSchema,
    rest: { method: 'GET', path: '/api/languages' },
    handler: () => ({ languages: SUPPORTED_LANGUAGES.map((l) => ({ ...l })), sourceOnly: ['auto' as const] }),
  }),
  /** Every session ends, this one too. */
  logoutEverywhere: defineOperation({
    tag,
    summary: 'End every page session of the account (and, if asked, revoke its tokens)',
    auth: 'session',
    input: signOutEverywhereSchema,
    output: sessionsEndedSchema,
    rest: { method: 'POST', path: '/api/auth/logout-everywhere' },
    async handler(ctx, input) {
      const ended = await endAllSessions(ctx, ctx.principal.userId, input);
      clearSessionCookie(ctx.config, ctx.reply);
      return ended;
    },
  }),
  /** The caller continues under a fresh session id. */
  changePassword: defineOperation({
    tag,
    summary: 'Change the password: ends every other session, and this one gets a fresh id',
    auth: 'session',
    input: changePasswordSchema,
    output: sessionsEndedSchema,
    rest: { method: 'POST', path: '/api/auth/password' },
    async handler(ctx, input) {
      const { sessionId, ...ended } = await changePassword(ctx, ctx.principal.userId, { ...input, addressKey: addressKey(ctx.request.ip) });
      setSessionCookie(ctx.config, ctx.reply, sessionId);
      return ended;
    },
  }),
  tokens: {
    list: defineOperation({
      tag: 'tokens',
      summary: 'List personal tokens (no secrets)',
      auth: 'read',
      input: noInput,
      output: tokenListSchema,
      rest: { method: 'GET', path: '/api/tokens' },
      handler: async (ctx) => ({ items: await listTokens(ctx, ctx.principal.userId) }),
    }),
    create: defineOperation({
      tag: 'tokens',
      summary: 'Create a personal token (shown once)',
      auth: 'session',
      input: createTokenSchema,
      output: createdTokenSchema,
      rest: {
        method: 'POST',
        path: '/api/tokens',
        status: 201,
        links: { 201: { revoke: { operationId: 'account.tokens.revoke', parameters: { 'path.id': '$response.body#/id' } } } },
      },
      handler: (ctx, input) => createToken(ctx, ctx.principal.userId, input),
    }),
    revoke: defineOperation({
      tag: 'tokens',
      summary: 'Revoke a token',
      auth: 'session',
      input: tokenIdSchema,
      output: z.void(),
      rest: { method: 'DELETE', path: '/api/tokens/:id', input: 'params', status: 204, problems: [404] },
      handler: (ctx, { id }) => revokeToken(ctx, ctx.principal.userId, id),
    }),
  },
};
