import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, type FieldError, problemBody } from '../../domain/problems.ts';

/** Turns framework errors (body parsing, validation, routing) into catalog errors. */
function toAppError(error: FastifyError): AppError {
  if (error instanceof AppError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const errors: FieldError[] = error.validation.map((v) => ({
      path: [v.instancePath.replace(/^\//, '').replaceAll('/', '.')].filter(Boolean).join('') || (error.validationContext ?? ''),
      message: v.message ?? 'invalid',
    }));
    return new AppError('invalid_request', `The request ${error.validationContext ?? 'input'} is invalid.`, { errors });
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('invalid_request', 'The body is not valid JSON.', { errors: [{ path: '', message: 'malformed JSON' }] });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('invalid_request', 'The body is empty but the content type says JSON.', { errors: [{ path: '', message: 'empty body' }] });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', 'The body is larger than this service accepts.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('unsupported_media_type', 'Send JSON with Content-Type: application/json.');
  }
  if (error instanceof SyntaxError || error.statusCode === 400) {
    return new AppError('invalid_request', 'The request could not be read.');
  }
  if (error.statusCode === 413) return new AppError('payload_too_large', 'The body is larger than this service accepts.');
  if (error.statusCode === 415) return new AppError('unsupported_media_type', 'Send JSON with Content-Type: application/json.');
  return new AppError('internal_error', 'Something went wrong on our side.');
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  return reply.code(error.status).type('application/problem+json').send(problemBody(error, request.url.split('?')[0]));
}

export const problemsPlugin = fp(async (app: FastifyInstance) => {
  // Patterns of every route, to tell an unknown method (405) from an unknown path (404).
  const routes: { pattern: RegExp; methods: Set<string> }[] = [];
  app.addHook('onRoute', (route) => {
    const pattern = new RegExp(`^${route.url.replace(/\*/g, '.*').replace(/:[^/]+/g, '[^/]+')}/?$`);
    const methods = ([] as string[]).concat(route.method);
    const known = routes.find((r) => r.pattern.source === pattern.source);
    if (known) methods.forEach((m) => known.methods.add(m));
    else routes.push({ pattern, methods: new Set(methods) });
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = routes.filter((r) => r.pattern.test(path)).flatMap((r) => [...r.methods]);
    // 405 only when the method is what is wrong; a known method on a missing resource is a 404.
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      reply.header('allow', [...new Set(allowed)].join(', '));
      return sendProblem(request, reply, new AppError('method_not_allowed', `${request.method} is not allowed here; use ${[...new Set(allowed)].join(', ')}.`));
    }
    return sendProblem(request, reply, new AppError('not_found', `No route ${request.method} ${path}.`));
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = toAppError(error);
    if (appError.status >= 500 || isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'request failed');
    }
    if (error.statusCode === 429 && appError.code === 'rate_limited') reply.header('retry-after', reply.getHeader('retry-after'));
    return sendProblem(request, reply, appError);
  });
});
