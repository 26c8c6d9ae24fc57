import { defineOperation, noInput } from '../../http/operation.ts';
import { ledgerQuerySchema, ledgerSchema, walletSchema } from './schemas.ts';
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
    handler: (ctx) => getWallet(ctx, ctx.principal.userId),
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
