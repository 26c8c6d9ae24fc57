import type { AnyProcedure } from '@trpc/server';
import { fastifyRequestHandler } from '@trpc/server/adapters/fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../domain/problems.ts';
import type { AppDeps } from '../../http/deps.ts';
import { loggableError } from '../../http/plugins/problems.ts';
import type { ProcedureMeta } from './init.ts';
import { appRouter } from './router.ts';

/**
 * Paths ('library.capture') of the procedures counted in the model bucket. At run time
 * `_def.procedures` is flat, keyed by path (what tRPC's own getProcedureAtPath reads); its type
 * describes the nested record.
 */
const modelBackedPaths = new Set(
  Object.entries(appRouter._def.procedures as unknown as Record<string, AnyProcedure>)
    .filter(([, procedure]) => (procedure._def.meta as ProcedureMeta | undefined)?.modelBacked === true)
    .map(([path]) => path),
);
const pathOf = (request: FastifyRequest) => (request.params as { path: string }).path;

/**
 * tRPC at /trpc/<procedure>, mounted with the adapter's request handler rather than its plugin.
 * The plugin streams `multipart/form-data` and `application/octet-stream` bodies into tRPC with no
 * size limit (its `maxBodySize` defaults to none), and parses JSON before the procedure has
 * checked who asks. Here:
 * - JSON only: any other body is refused (415) by Fastify before a byte of it is read;
 * - the JSON body is handed to tRPC unread, and tRPC reads it — up to BODY_LIMIT_BYTES — only
 *   when a procedure asks for its input, after its principal check;
 * - no batching: one request is one call, so one rate-limit count is one call's work;
 * - the global hooks (per-address limit, auth, CSRF, read-only scope, per-user limit) run as for
 *   REST; a procedure's `modelBacked` meta puts the request in the model bucket.
 */
export async function trpcPlugin(app: FastifyInstance, deps: AppDeps) {
  const bodyLimit = deps.config.bodyLimitBytes;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', (request, payload, done) => {
    if (Number(request.headers['content-length']) > bodyLimit) {
      done(new AppError('payload_too_large', 'The body is larger than this service accepts.'), undefined);
      return;
    }
    done(null, payload);
  });

  app.route({
    method: ['GET', 'POST'],
    url: '/trpc/:path',
    // The principal is resolved when present; each procedure decides whether it needs one.
    config: { auth: 'optional', modelBacked: (request) => modelBackedPaths.has(pathOf(request)) },
    // Not REST operations: kept out of the OpenAPI document.
    schema: { hide: true },
    handler: (request, reply) =>
      fastifyRequestHandler({
        router: appRouter,
        req: request,
        res: reply,
        path: pathOf(request),
        allowBatching: false,
        maxBodySize: bodyLimit,
        createContext: ({ req, res }) => ({ deps, request: req, reply: res }),
        // Catalog errors are answers; anything else is a bug and is logged like REST's 500s.
        onError: ({ error, path, req }) => {
          if (error.code === 'INTERNAL_SERVER_ERROR') req.log.error({ err: loggableError(error.cause ?? error), procedure: path }, 'tRPC procedure failed');
        },
      }),
  });
}
