import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';

export type SecurityHeaders = (request: FastifyRequest, reply: FastifyReply) => void;

/**
 * Helmet's headers: nosniff, `Referrer-Policy: no-referrer`, `X-Frame-Options: DENY`, COOP/CORP,
 * HSTS when the service is served over https, and a CSP that lets JSON, problems and 404s render
 * and load nothing and never be framed. Pages that do render (the web page, the API reference)
 * set their own policy, with `frame-ancestors 'none'` too: helmet writes on the raw response, so
 * a route's own `reply.header('content-security-policy', …)` wins.
 */
export function securityHeaders({ https }: { https: boolean }): SecurityHeaders {
  const apply = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { 'default-src': ["'none'"], 'base-uri': ["'none'"], 'form-action': ["'none'"], 'frame-ancestors': ["'none'"] },
    },
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
  return (request, reply) => apply(request.raw, reply.raw, () => {});
}

/**
 * Applies them in `onSend`, the one hook every answer passes through (errors raised by any hook,
 * 404s), rather than in `onRequest`, which an early refusal would skip. Fastify's framework
 * errors (a URL that does not decode) skip `onSend` too: app.ts applies them there itself.
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, { apply }: { apply: SecurityHeaders }) => {
    app.addHook('onSend', async (request, reply) => apply(request, reply));
  },
  { name: 'security-headers' },
);
