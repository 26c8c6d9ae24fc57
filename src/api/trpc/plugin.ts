import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { loggableError } from '../plugins/problems.ts';
import { appRouter, type AppRouter } from './router.ts';

export async function trpcPlugin(app: FastifyInstance, deps: AppDeps) {
  // The global hooks (auth, CSRF, read-only scope, rate limit) apply to /trpc as to REST;
  // here the principal is optional and each procedure decides.
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, auth: 'optional' };
    // tRPC's catch-all routes are not REST operations: keep them out of the OpenAPI document.
    route.schema = { ...route.schema, hide: true };
  });
  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext: ({ req, res }) => ({ deps, request: req, reply: res }),
      // Catalog errors are answers; anything else is a bug and is logged like REST's 500s.
      onError: ({ error, path, req }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR') req.log.error({ err: loggableError(error.cause ?? error), procedure: path }, 'tRPC procedure failed');
      },
    },
  } satisfies { prefix: string; trpcOptions: FastifyTRPCPluginOptions<AppRouter>['trpcOptions'] });
}
