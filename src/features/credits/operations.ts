import { defineOperation, noInput } from '../../http/operation.ts';
import { ledgerQuerySchema, ledgerSchema, walletSchema } from './schemas.ts';
import { prepareWaitingOnRead } from '../library/renewal.ts';
import { getWallet, listLedger } from './wallet.ts';

const tag = 'credits';

/** The wallet and its ledger at /api/credits and tRPC `credits.*`. */
export const creditOperations = {
  balance: defineOperation({
    tag,
    summary: 'Balance and current period',
    auth: 'read',
    input: noInput,
    output: walletSchema,
    rest: { method: 'GET', path: '/api/credits' },
    async handler(ctx) {
      const wallet = await getWallet(ctx, ctx.principal.userId);
      // A renewed period: the cards that waited for it are prepared again, if the learner chose that.
      await prepareWaitingOnRead(ctx, ctx.principal.userId, wallet.periodStart);
      return wallet;
    },
  }),
  ledger: defineOperation({
    tag,
    summary: 'Ledger entries, newest first',
    auth: 'read',
    input: ledgerQuerySchema,
    output: ledgerSchema,
    rest: { method: 'GET', path: '/api/credits/ledger' },
    handler: (ctx, { cursor, limit }) => listLedger(ctx, ctx.principal.userId, cursor, limit),
  }),
};
