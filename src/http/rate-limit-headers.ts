import type { FastifyReply } from 'fastify';
import type { RateLimitDecision } from '../domain/rate-limit.ts';

/**
 * Headers of the IETF RateLimit draft: the rate-limit plugin's, and those an operation writes from
 * a throttle of its own (login). Apart from the plugin, so that an operation need not load it.
 */
export function setRateLimitHeaders(reply: FastifyReply, decision: RateLimitDecision) {
  reply.header('ratelimit-limit', decision.limit);
  reply.header('ratelimit-remaining', decision.remaining);
  reply.header('ratelimit-reset', Math.ceil(decision.resetMs / 1000));
}
