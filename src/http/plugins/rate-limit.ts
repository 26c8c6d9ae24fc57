import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import type { Orm } from '../../db/orm.ts';
import { addressKey } from '../../domain/client-address.ts';
import { type AppError, rateLimited } from '../../domain/problems.ts';
import { counter } from '../../platform/metrics.ts';
import type { Quota } from '../../domain/rate-limit.ts';
import { hitBucket, MemoryBuckets, userBucket } from '../../services/rate-limit-store.ts';
import { setRateLimitHeaders } from '../rate-limit-headers.ts';

/** 429s by limit, for operators: a rising `address` or `login` count is someone probing. */
const refusals = counter('lcs_rate_limited_total', 'Requests refused with 429 rate_limited, by limit', ['limit']);

/** Counts a `rate_limited` answer, REST or tRPC, by the `limit` it names (src/domain/problems.ts). */
export function countRefusal(error: AppError) {
  if (error.code !== 'rate_limited') return;
  const { limit } = error.extensions;
  refusals.inc({ limit: typeof limit === 'string' ? limit : 'other' });
}

const isHealthCheck = (request: FastifyRequest) => request.routeOptions.url === '/healthz' || request.routeOptions.url === '/readyz';

/**
 * Per client address, in this process's memory, before any credential is looked up: bogus tokens
 * and session cookies each cost a database lookup, and this is the only limit they meet. Memory
 * keeps it free of I/O; each API process counts on its own, so N processes allow N times the limit.
 * Register before `auth`: hooks run in registration order.
 */
export const addressLimitPlugin = fp(
  async (app: FastifyInstance, { config }: { config: Config }) => {
    const buckets = new MemoryBuckets(100_000);
    const quota: Quota = { limit: config.rateLimit.addressMax, periodMs: config.rateLimit.windowSeconds * 1000 };
    app.addHook('onRequest', async (request, reply) => {
      if (isHealthCheck(request)) return;
      const decision = buckets.hit(addressKey(request.ip), quota);
      if (!decision.allowed) {
        setRateLimitHeaders(reply, decision);
        throw rateLimited('address', decision.retryAfterMs);
      }
    });
  },
  { name: 'address-limit' },
);

type Bucket = 'model' | 'export' | 'api';
/** The limit a refusal names, by bucket. */
const LIMIT_OF = { model: 'model', export: 'export', api: 'user' } as const;

/** A route's bucket: model-backed routes (or tRPC procedures) and exports have tighter ones. */
function bucketOf(request: FastifyRequest): Bucket {
  const { modelBacked, bucket } = request.routeOptions.config;
  if (bucket) return bucket;
  return (typeof modelBacked === 'function' ? modelBacked(request) : modelBacked) ? 'model' : 'api';
}

/**
 * Per user, in PostgreSQL so that every API process shares one count, with separate, tighter
 * buckets for model-backed routes and for exports. Runs as soon as the principal is known, before the body is read.
 * Requests without a principal (public routes) meet the per-address limit and their own buckets
 * (sign-up, login) only: they add no database write.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, { orm, config }: { orm: Orm; config: Config }) => {
    const periodMs = config.rateLimit.windowSeconds * 1000;
    const quotas: Record<Bucket, Quota> = {
      api: { limit: config.rateLimit.max, periodMs },
      model: { limit: config.rateLimit.modelMax, periodMs },
      export: { limit: config.rateLimit.exportMax, periodMs },
    };
    app.addHook('onRequest', async (request, reply) => {
      const principal = request.principal;
      if (!principal || isHealthCheck(request)) return;
      const bucket = bucketOf(request);
      const decision = await hitBucket(orm.em.fork(), userBucket(bucket, principal.userId), quotas[bucket]);
      setRateLimitHeaders(reply, decision);
      if (!decision.allowed) throw rateLimited(LIMIT_OF[bucket], decision.retryAfterMs);
    });
  },
  { name: 'rate-limit', dependencies: ['auth'] },
);
