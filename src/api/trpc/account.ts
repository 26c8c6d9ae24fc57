import { z } from 'zod';
import { SUPPORTED_LANGUAGES } from '../../domain/languages.ts';
import { addressKey } from '../../domain/client-address.ts';
import { changePassword, endAllSessions, getAccount, setLanguages } from '../../features/account/service.ts';
import { createToken, listTokens, revokeToken } from '../../features/account/tokens.ts';
import { getWallet, listLedger } from '../../features/credits/wallet.ts';
import { changePasswordSchema, createTokenSchema, languageSettingsSchema, signOutEverywhereSchema } from '../../features/account/schemas.ts';
import { ledgerQuerySchema } from '../../features/credits/schemas.ts';
import { clearSessionCookie, setSessionCookie } from '../../http/session-cookie.ts';
import { authedProcedure, publicProcedure, router, sessionProcedure } from './init.ts';

export const accountRouter = router({
  me: authedProcedure.query(({ ctx }) => getAccount(ctx.em, ctx.principal.userId)),
  languages: publicProcedure.query(() => ({ languages: SUPPORTED_LANGUAGES.map((l) => ({ ...l })), sourceOnly: ['auto'] })),
  setLanguages: authedProcedure
    .input(languageSettingsSchema)
    .mutation(({ ctx, input }) => setLanguages(ctx.em, ctx.principal.userId, input.targetLanguage, input.nativeLanguage)),
  credits: authedProcedure.query(({ ctx }) => getWallet(ctx.em, ctx.principal.userId)),
  ledger: authedProcedure.input(ledgerQuerySchema).query(({ ctx, input }) => listLedger(ctx.em, ctx.principal.userId, input.cursor, input.limit)),
  /** Same rules as POST /api/auth/logout-everywhere: every session ends, this one too. */
  logoutEverywhere: sessionProcedure.input(signOutEverywhereSchema).mutation(async ({ ctx, input }) => {
    const ended = await endAllSessions(ctx.em, ctx.principal.userId, input);
    clearSessionCookie(ctx.deps.config, ctx.reply);
    return ended;
  }),
  /** Same rules as POST /api/auth/password: the caller continues under a fresh session id. */
  changePassword: sessionProcedure.input(changePasswordSchema).mutation(async ({ ctx, input }) => {
    const { sessionId, ...ended } = await changePassword(ctx.em, ctx.principal.userId, { ...input, addressKey: addressKey(ctx.request.ip) });
    setSessionCookie(ctx.deps.config, ctx.reply, sessionId);
    return ended;
  }),
  tokens: router({
    list: authedProcedure.query(async ({ ctx }) => ({ items: await listTokens(ctx.em, ctx.principal.userId) })),
    create: sessionProcedure.input(createTokenSchema).mutation(({ ctx, input }) => createToken(ctx.em, ctx.principal.userId, input)),
    revoke: sessionProcedure.input(z.object({ id: z.uuid() })).mutation(({ ctx, input }) => revokeToken(ctx.em, ctx.principal.userId, input.id)),
  }),
});
