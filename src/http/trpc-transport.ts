import { fastifyRequestHandler } from '@trpc/server/adapters/fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { addressKey } from '../domain/client-address.ts';
import { AppError } from '../domain/problems.ts';
import type { FeatureContexts } from '../features/context.ts';
import type { AppDeps } from './deps.ts';
import { liveCredentials } from '../features/account/service.ts';
import { statusHub as createStatusHub } from '../features/status/hub.ts';
import { loggableError } from './plugins/problems.ts';
import { jsonOperations } from './operation.ts';
import { appRouter, feedPaths, operations } from './operations.ts';

/** Paths ('library.capture') of the procedures counted in the model bucket, from their operations. */
const modelBackedPaths = new Set(
  jsonOperations(operations)
    .filter(([, operation]) => operation.modelBacked)
    .map(([path]) => path),
);
const pathOf = (request: FastifyRequest) => (request.params as { path: string }).path;
/** Procedures whose operation takes a larger body than BODY_LIMIT_BYTES (an import's list). */
const bodyLimits = new Map(
  jsonOperations(operations)
    .filter(([, operation]) => operation.rest.bodyLimit)
    .map(([path, operation]) => [path, operation.rest.bodyLimit!]),
);

/**
 * tRPC at /trpc/<procedure>, mounted with the adapter's request handler rather than its plugin.
 * The plugin streams `multipart/form-data` and `application/octet-stream` bodies into tRPC with no
 * size limit (its `maxBodySize` defaults to none), and parses JSON before the procedure has
 * checked who asks. Here:
 * - JSON only: any other body is refused (415) by Fastify before a byte of it is read;
 * - the JSON body is handed to tRPC unread, and tRPC reads it — up to BODY_LIMIT_BYTES — only
 *   when a procedure asks for its input, after its principal check;
 * - no batching: one request is one call, so one rate-limit count is one call's work;
 * - subscriptions (`status.changes`) are GETs answered as text/event-stream, for as long as the
 *   stream lasts; the client's `httpSubscriptionLink` opens them with the page's cookie;
 * - the global hooks (per-address limit, auth, CSRF, read-only scope, per-user limit) run as for
 *   REST; a model-backed operation puts the request in the model bucket.
 */
export async function trpcPlugin(app: FastifyInstance, { deps, contexts }: { deps: AppDeps; contexts: FeatureContexts }) {
  const bodyLimit = deps.config.bodyLimitBytes;
  app.removeAllContentTypeParsers();
  const limitOf = (request: FastifyRequest) => bodyLimits.get(pathOf(request)) ?? bodyLimit;
  app.addContentTypeParser('application/json', (request, payload, done) => {
    if (Number(request.headers['content-length']) > limitOf(request)) {
      done(new AppError('payload_too_large', 'The body is larger than this service accepts.'), undefined);
      return;
    }
    done(null, payload);
  });

  // Streams never end by themselves: they are ended before the server waits for open requests.
  // Its address is read at the first stream: building the app (e.g. for its OpenAPI document) needs no database.
  const statusHub = createStatusHub(
    () => deps.orm.config.get('clientUrl'),
    app.log,
    (credentials) => liveCredentials(deps.orm.em.fork(), credentials),
  );
  app.addHook('preClose', () => statusHub.close());

  const serve = (request: FastifyRequest, reply: FastifyReply, path: string) =>
    fastifyRequestHandler({
      router: appRouter,
      req: request,
      res: reply,
      path,
      allowBatching: false,
      maxBodySize: bodyLimits.get(path) ?? bodyLimit,
      createContext: ({ req, res }) => ({ contexts, request: req, reply: res, statusHub }),
      // Catalog errors are answers; anything else is a bug and is logged like REST's 500s.
      // A live stream ended by a catalog error (its credential revoked) is an answer too, said at info.
      onError: ({ error, path, req, type }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR') req.log.error({ err: loggableError(error.cause ?? error), procedure: path }, 'tRPC procedure failed');
        else if (type === 'subscription') req.log.info({ procedure: path, code: error.code }, 'live stream ended by a problem');
      },
    });
  // Not REST operations: kept out of the OpenAPI document.
  const hidden = { hide: true };

  app.route({
    method: ['GET', 'POST'],
    url: '/trpc/:path',
    // The principal is resolved when present; each procedure decides whether it needs one.
    config: { auth: 'optional', modelBacked: (request) => modelBackedPaths.has(pathOf(request)) },
    schema: hidden,
    handler: (request, reply) => serve(request, reply, pathOf(request)),
  });
  // A feed answers 200 as soon as its stream opens and reports later errors inside it, so who
  // asks is checked here, before: a caller without a principal gets a plain 401 problem.
  // Each open stream holds a socket and a listener for minutes: a handful per user and per client
  // address in this process, past which the next is refused before it opens (429, `limit: "streams"`).
  const admitStream = streamCaps(deps.config.statusStreams);
  for (const path of feedPaths) {
    app.route({
      method: 'GET',
      url: `/trpc/${path}`,
      config: { auth: 'read' },
      schema: hidden,
      handler: (request, reply) => {
        const release = admitStream(request.principal!.userId, addressKey(request.ip));
        reply.raw.once('close', release);
        return serve(request, reply, path);
      },
    });
  }
}

/** Open streams counted per user and per address; a stream past either cap is refused. Returns how to count one out. */
function streamCaps({ perUser, perAddress }: { perUser: number; perAddress: number }) {
  const open = new Map<string, number>();
  const count = (key: string, by: number) => {
    const n = (open.get(key) ?? 0) + by;
    if (n > 0) open.set(key, n);
    else open.delete(key);
  };
  return (userId: string, address: string): (() => void) => {
    const keys = [`user:${userId}`, `address:${address}`];
    if ((open.get(keys[0]!) ?? 0) >= perUser || (open.get(keys[1]!) ?? 0) >= perAddress) {
      throw new AppError(
        'rate_limited',
        'Too many live status streams are open for this account or address: close one, or retry in 30 s.',
        { limit: 'streams' },
        { retryAfterSeconds: 30 },
      );
    }
    for (const key of keys) count(key, 1);
    let released = false;
    return () => {
      if (!released) for (const key of keys) count(key, -1);
      released = true;
    };
  };
}
