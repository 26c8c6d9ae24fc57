import { z } from 'zod';
import { SUPPORTED_LANGUAGES } from '../../domain/languages.ts';
import { getAccount, setLanguages } from '../../services/accounts.ts';
import { createToken, listTokens, revokeToken } from '../../services/tokens.ts';
import { getWallet, listLedger } from '../../services/wallet.ts';
import { createTokenSchema, languageSettingsSchema } from '../schemas/account.ts';
import { ledgerQuerySchema } from '../schemas/credits.ts';
import { authedProcedure, publicProcedure, router, sessionProcedure } from './init.ts';

export const accountRouter = router({
  me: authedProcedure.query(({ ctx }) => getAccount(ctx.em, ctx.principal.userId)),
  languages: publicProcedure.query(() => ({ languages: SUPPORTED_LANGUAGES.map((l) => ({ ...l })), sourceOnly: ['auto'] })),
  setLanguages: authedProcedure
    .input(languageSettingsSchema)
    .mutation(({ ctx, input }) => setLanguages(ctx.em, ctx.principal.userId, input.targetLanguage, input.nativeLanguage)),
  credits: authedProcedure.query(({ ctx }) => getWallet(ctx.em, ctx.principal.userId)),
  ledger: authedProcedure.input(ledgerQuerySchema).query(({ ctx, input }) => listLedger(ctx.em, ctx.principal.userId, input.cursor, input.limit)),
  tokens: router({
    list: authedProcedure.query(async ({ ctx }) => ({ items: await listTokens(ctx.em, ctx.principal.userId) })),
    create: sessionProcedure.input(createTokenSchema).mutation(({ ctx, input }) => createToken(ctx.em, ctx.principal.userId, input)),
    revoke: sessionProcedure.input(z.object({ id: z.uuid() })).mutation(({ ctx, input }) => revokeToken(ctx.em, ctx.principal.userId, input.id)),
  }),
});
