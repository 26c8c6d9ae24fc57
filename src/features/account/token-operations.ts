import { z } from 'zod';
import { createToken, listTokens, revokeToken } from './tokens.ts';
import type { App, AppDeps } from '../../http/deps.ts';
import { requirePrincipal } from '../../http/plugins/auth.ts';
import { createdTokenSchema, createTokenSchema, tokenSchema } from './schemas.ts';
import { AUTHED, problems } from '../../http/problem-responses.ts';

export async function tokenRoutes(app: App, { orm }: AppDeps) {
  app.post('/api/tokens', {
    config: { auth: 'session' },
    schema: { tags: ['tokens'], summary: 'Create a personal token (shown once)', body: createTokenSchema, response: { 201: createdTokenSchema, ...problems(...AUTHED) } },
  }, async (request, reply) => reply.code(201).send(await createToken(orm.em.fork(), requirePrincipal(request).userId, request.body)));

  app.get('/api/tokens', {
    schema: { tags: ['tokens'], summary: 'List personal tokens (no secrets)', response: { 200: z.object({ items: z.array(tokenSchema) }), ...problems(...AUTHED) } },
  }, async (request) => ({ items: await listTokens(orm.em.fork(), requirePrincipal(request).userId) }));

  app.delete('/api/tokens/:id', {
    config: { auth: 'session' },
    schema: { tags: ['tokens'], summary: 'Revoke a token', params: z.object({ id: z.uuid() }), response: { 204: z.null(), ...problems(...AUTHED, 404) } },
  }, async (request, reply) => {
    await revokeToken(orm.em.fork(), requirePrincipal(request).userId, request.params.id);
    return reply.code(204).send(null);
  });
}
