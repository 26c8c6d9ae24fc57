import { getWallet, listLedger } from './wallet.ts';
import type { App, AppDeps } from '../../http/deps.ts';
import { requirePrincipal } from '../../http/plugins/auth.ts';
import { AUTHED, problems } from '../../http/problem-responses.ts';
import { ledgerQuerySchema, ledgerSchema, walletSchema } from './schemas.ts';

export async function creditRoutes(app: App, { orm }: AppDeps) {
  app.get('/api/credits', {
    schema: { tags: ['credits'], summary: 'Balance and current period', response: { 200: walletSchema, ...problems(...AUTHED) } },
  }, async (request) => getWallet(orm.em.fork(), requirePrincipal(request).userId));

  app.get('/api/credits/ledger', {
    schema: { tags: ['credits'], summary: 'Ledger entries, newest first', querystring: ledgerQuerySchema, response: { 200: ledgerSchema, ...problems(...AUTHED) } },
  }, async (request) => listLedger(orm.em.fork(), requirePrincipal(request).userId, request.query.cursor, request.query.limit));
}
