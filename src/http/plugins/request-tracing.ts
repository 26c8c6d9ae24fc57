import { context, propagation, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { tracer } from '../../platform/telemetry.ts';

const spans = new WeakMap<FastifyRequest, Span>();

/**
 * A server span per request, named by method and route pattern, continuing a caller's
 * `traceparent` when one is sent. Its attributes are the method, the route pattern and the status:
 * never the URL, a body or a header value, which carry ids, user text and secrets. It becomes the
 * active context in the first preHandler, after the body is read (a stream's events would lose it),
 * so the handler's database writes (the outbox's trace_context) and provider calls join it.
 */
export const requestTracingPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', async (request) => {
      const route = request.routeOptions.url ?? 'unmatched';
      const parent = propagation.extract(context.active(), request.headers);
      spans.set(
        request,
        tracer().startSpan(
          `${request.method} ${route}`,
          {
            kind: SpanKind.SERVER,
            attributes: { 'http.request.method': request.method, 'http.route': route },
          },
          parent,
        ),
      );
    });
    app.addHook('preHandler', (request, _reply, done) => {
      const span = spans.get(request);
      if (span) context.with(trace.setSpan(context.active(), span), done);
      else done();
    });
    app.addHook('onResponse', async (request, reply) => {
      const span = spans.get(request);
      if (!span) return;
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
  },
  { name: 'request-tracing' },
);
