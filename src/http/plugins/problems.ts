import { DriverException } from '@mikro-orm/core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../../domain/database-errors.ts';
import { AppError, type FieldError, problemBody } from '../../domain/problems.ts';
import { countRefusal } from './rate-limit.ts';

/**
 * The catalog error that any failure of a request stands for, when it stands for one: itself, or
 * the database being away (503 with its catalog Retry-After). Shared by REST and tRPC.
 */
export function catalogErrorOf(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  if (isDatabaseUnavailable(error)) return new AppError('service_unavailable', 'The database is not reachable right now; try again shortly.');
  return null;
}

/** Turns framework errors (body parsing, validation, routing) into catalog errors. */
function toAppError(error: FastifyError): AppError {
  const known = catalogErrorOf(error);
  if (known) return known;
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

/**
 * What a failure's log line may say. A database error quotes SQL values — user text — in its
 * message (`invalid input syntax for type uuid: "…"`) and in `detail`, `where`, `parameters`:
 * only its class, SQLSTATE, routine and stack frames are kept.
 */
export function loggableError(error: unknown): unknown {
  if (!(error instanceof DriverException)) return error;
  const frames = (error.stack ?? '')
    .split('\n')
    .filter((line) => line.trim().startsWith('at '))
    .join('\n');
  const { routine } = error as DriverException & { routine?: string };
  return { type: error.name, code: error.code, routine, stack: `${error.name}: (message withheld: it may quote user data)\n${frames}` };
}

/** What every problem answer carries beside its body, REST or tRPC: Retry-After when it names a wait; 429s counted. */
export function answerProblem(reply: FastifyReply, error: AppError) {
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
  countRefusal(error);
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  answerProblem(reply, error);
  return reply
    .code(error.status)
    .type('application/problem+json')
    .send(problemBody(error, request.url.split('?')[0]));
}

export const problemsPlugin = fp(async (app: FastifyInstance) => {
  // Patterns of every route, to tell an unknown method (405) from an unknown path (404).
  const routes: { pattern: RegExp; methods: Set<string>; exact: boolean }[] = [];
  app.addHook('onRoute', (route) => {
    const pattern = new RegExp(`^${route.url.replace(/\*/g, '.*').replace(/:[^/]+/g, '[^/]+')}/?$`);
    const methods = ([] as string[]).concat(route.method);
    const known = routes.find((r) => r.pattern.source === pattern.source);
    if (known) methods.forEach((m) => known.methods.add(m));
    else routes.push({ pattern, methods: new Set(methods), exact: !/[:*]/.test(route.url) });
  });
  // A path a route names exactly (/api/library/export) is that route’s alone, as the router
  // decides, not also the parametric sibling's (/api/library/:cardId).
  const allowedMethods = (path: string) => {
    const matching = routes.filter((r) => r.pattern.test(path));
    const exact = matching.filter((r) => r.exact);
    return [...new Set((exact.length > 0 ? exact : matching).flatMap((r) => [...r.methods]))];
  };

  // No route: 405 with Allow when the path exists but not for this method, whatever its name
  // (QUERY, PROPFIND, …), else 404. Decided on arrival, before anything is read or looked up (an
  // unmatched QUERY without Content-Type would otherwise be a 400 while Fastify reads its body,
  // RFC 10008): the answer needs no I/O, so it also comes before the per-address limit.
  const refuseUnmatched = (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0]!;
    const allowed = allowedMethods(path);
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      reply.header('allow', allowed.join(', '));
      return sendProblem(request, reply, new AppError('method_not_allowed', `${request.method} is not allowed here; use ${allowed.join(', ')}.`));
    }
    return sendProblem(request, reply, new AppError('not_found', `No route ${request.method} ${path}.`));
  };
  app.addHook('onRequest', async (request, reply) => {
    if (request.is404) return refuseUnmatched(request, reply);
  });
  app.setNotFoundHandler(refuseUnmatched);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = toAppError(error);
    // A catalog 5xx (the provider down, its breaker open, every model slot busy) is an answer the client is told how
    // to wait out: a warning with its code. Anything else at 5xx is a bug or an outage of our own: an error with its stack.
    if (isResponseSerializationError(error) || (appError.status >= 500 && (!(error instanceof AppError) || appError.code === 'internal_error'))) {
      request.log.error({ err: loggableError(error) }, 'request failed');
    } else if (appError.status >= 500) {
      request.log.warn({ code: appError.code, status: appError.status }, 'request answered with a server-side problem');
    }
    return sendProblem(request, reply, appError);
  });
});
