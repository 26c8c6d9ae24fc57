import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import type { Orm } from '../../db/orm.ts';
import { AppError } from '../../domain/problems.ts';
import { postgresRateLimitStore } from '../../services/rate-limit-store.ts';

/**
 * Per principal (the user; the client address before sign-in), with a separate, tighter bucket
 * for model-backed routes. Headers follow the IETF RateLimit draft plus Retry-After on 429.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, { orm, config }: { orm: Orm; config: Config }) => {
    const bucketOf = (request: FastifyRequest) => (request.routeOptions.config.modelBacked ? 'model' : 'api');
    await app.register(rateLimit, {
      global: true,
      hook: 'preValidation',
      enableDraftSpec: true,
      timeWindow: config.rateLimit.windowSeconds * 1000,
      max: (request: FastifyRequest) => (bucketOf(request) === 'model' ? config.rateLimit.modelMax : config.rateLimit.max),
      keyGenerator: (request: FastifyRequest) => `${bucketOf(request)}:${request.principal?.userId ?? `ip:${request.ip}`}`,
      store: postgresRateLimitStore(orm),
      allowList: (request: FastifyRequest) => request.url === '/healthz' || request.url === '/readyz',
      errorResponseBuilder: (_request, context) => {
        const error = new AppError('rate_limited', `Too many requests; retry in ${Math.ceil(context.ttl / 1000)} s.`);
        return Object.assign(error, { statusCode: 429 });
      },
    });
  },
  { name: 'rate-limit', dependencies: ['auth'] },
);
