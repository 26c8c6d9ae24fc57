import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { randomUUID } from 'node:crypto';
import { TOKEN_PREFIX } from '../domain/limits.ts';
import { AppError } from '../domain/problems.ts';
import type { App, AppDeps } from './deps.ts';
import { authPlugin } from './plugins/auth.ts';
import { languageGuardPlugin } from './plugins/language-guard.ts';
import { problemsPlugin, sendProblem } from './plugins/problems.ts';
import { addressLimitPlugin, rateLimitPlugin } from './plugins/rate-limit.ts';
import { requestMetricsPlugin } from './plugins/request-metrics.ts';
import { requestTracingPlugin } from './plugins/request-tracing.ts';
import { securityHeaders, securityHeadersPlugin } from './plugins/security-headers.ts';
import { sessionCookieName } from '../features/account/session-cookie.ts';
import { textGuardPlugin } from './plugins/text-guard.ts';
import { apiDescription } from './api-reference.ts';
import { whereTextGoes } from '../model/where-text-goes.ts';
import { featureContexts } from '../features/context.ts';
import { healthRoutes } from './health.ts';
import { operations } from './operations.ts';
import { mountRest } from './rest.ts';
import { completeDocument } from './openapi-document.ts';
import { trpcPlugin } from './trpc-transport.ts';
import { webAppPlugin } from './web-app.ts';

/**
 * One line per request with its id, method, route pattern, status, timing and user id. Never
 * bodies, query strings or headers: they carry user text and secrets.
 */
class RequestLog extends LogController {
  override incomingRequest() {}
  override requestCompleted(_error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        user: request.principal?.userId,
      },
      'request',
    );
  }
}

/**
 * swagger-ui needs its own scripts (no inline ones: its csp.json lists no hashes) and applies
 * inline styles; it is never framed, and calls only this origin (the validator badge is off).
 */
const DOCS_CSP =
  "default-src 'self'; base-uri 'none'; object-src 'none'; frame-ancestors 'none'; form-action 'self'; script-src 'self'; style-src 'self' " +
  "'unsafe-inline'; img-src 'self' data:";

/**
 * Builds the whole HTTP surface: REST under /api, tRPC under /trpc, the OpenAPI document and
 * its rendering. Listening and shutdown belong to the caller (server.ts, main.ts, tests).
 */
export async function buildApp(deps: AppDeps, options: { logger?: boolean | object; loggerInstance?: FastifyBaseLogger } = {}): Promise<App> {
  const hardened = securityHeaders({ https: deps.config.publicOrigin.startsWith('https://') });
  const app = Fastify({
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : { logger: options.logger ?? { level: deps.config.logLevel } }),
    bodyLimit: deps.config.bodyLimitBytes,
    // Unknown members of a JSON body are ignored, and `__proto__` / `constructor.prototype` are
    // unknown members like any other: dropped while parsing (never merged into an object), not a 400.
    onProtoPoisoning: 'remove',
    onConstructorPoisoning: 'remove',
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    logController: new RequestLog(),
    trustProxy: deps.config.trustProxy,
    // A URL that does not decode is a client error like any other: a problem, with every header.
    frameworkErrors: (error, request, reply) => {
      hardened(request, reply);
      sendProblem(request, reply, new AppError('invalid_request', `The URL is not valid (${error.code}).`));
    },
  }).withTypeProvider<ZodTypeProvider>();

  // JSON only: Fastify's built-in text/plain parser would let a text body reach validation (400); it is a 415.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // An answer given before the whole body arrived (a refusal that never read it) closes the
    // connection: keeping it alive would mean reading and discarding whatever the client still sends.
    if (!request.raw.complete) reply.header('connection', 'close');
  });

  await app.register(requestMetricsPlugin);
  await app.register(requestTracingPlugin);
  await app.register(securityHeadersPlugin, { apply: hardened });
  await app.register(problemsPlugin);
  // The API reference and the web page are public; everything else defaults to requiring a principal.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/docs') || route.url.startsWith('/assets/')) route.config = { ...route.config, auth: 'public' };
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Language Capture Service',
        version: '1.0.0',
        description: `${apiDescription}\n\n## Where your text goes\n${whereTextGoes(deps.config.model).statement}`,
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: `Personal token (\`${TOKEN_PREFIX}…\`), created under API tokens.` },
          session: { type: 'apiKey', in: 'cookie', name: sessionCookieName(deps.config) },
        },
      },
      security: [{ bearer: [] }, { session: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: (document) => completeDocument(jsonSchemaTransformObject(document), [operations]),
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true, validatorUrl: null },
    staticCSP: DOCS_CSP,
  });
  app.get('/api/openapi.json', { config: { auth: 'public' }, schema: { hide: true } }, async () => app.swagger());
  // The first-party web app: built files (no inline code) that call /trpc on the same origin.
  await app.register(webAppPlugin);

  await app.register(cookie);
  await app.register(addressLimitPlugin, deps);
  await app.register(authPlugin, deps);
  await app.register(rateLimitPlugin, deps);
  await app.register(languageGuardPlugin, deps);
  await app.register(textGuardPlugin);

  // One maker of feature contexts for both transports: one workflow starter for the app.
  const contexts = featureContexts(deps);
  await app.register(async (scope) => {
    const typed = scope.withTypeProvider<ZodTypeProvider>();
    await healthRoutes(typed, deps);
    mountRest(typed, contexts, operations);
  });
  await app.register(trpcPlugin, { deps, contexts });
  return app;
}
