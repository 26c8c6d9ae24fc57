import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { counter, histogram } from '../../platform/metrics.ts';

const requests = counter('lcs_http_requests_total', 'HTTP requests answered, by method, route pattern and status', ['method', 'route', 'status']);
const latency = histogram(
  'lcs_http_request_duration_seconds',
  'Time to answer an HTTP request, by method and route pattern',
  ['method', 'route'],
  [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
);

/**
 * Requests by route and status, with their latency. The label is the route's pattern
 * (`/api/library/:cardId`), never the URL: ids and query strings would make a series per
 * request and could carry user text. A request no route matched counts as `unmatched`.
 */
export const requestMetricsPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? 'unmatched';
      requests.inc({ method: request.method, route, status: String(reply.statusCode) });
      latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    });
  },
  { name: 'request-metrics' },
);
