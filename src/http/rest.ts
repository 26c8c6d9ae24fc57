import { z } from 'zod';
import type { FeatureContexts } from '../features/context.ts';
import type { App } from './deps.ts';
import type { OperationTree, RegisteredOperation, RestParts } from './operation.ts';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../domain/problems.ts';
import type { Operation } from './operation.ts';
import { flattenOperations, isStreamOperation, noInput, operationContext } from './operation.ts';
import { AUTHED, hookStatuses, problemResponse, problems } from './problem-responses.ts';

/** Request schemas and the input they make, from the operation's REST binding. */
export function restInput(operation: RegisteredOperation) {
  const { method, input: from = method === 'GET' ? 'query' : 'body' } = operation.rest;
  if (operation.input === noInput) return { schema: {}, toInput: () => undefined };
  switch (from) {
    case 'query':
      return { schema: { querystring: operation.input }, toInput: (parts: RestParts): unknown => parts.query };
    case 'body':
      return { schema: { body: operation.input }, toInput: (parts: RestParts): unknown => parts.body };
    case 'params':
      return { schema: { params: operation.input }, toInput: (parts: RestParts): unknown => parts.params };
    default: {
      const { toInput, ...schema } = from;
      return { schema, toInput };
    }
  }
}

/** Success responses (204 carries no body; a stream's are documented as they are) and the problems this operation can answer. */
function restResponses(operation: RegisteredOperation) {
  const failures = [
    ...new Set([...(operation.auth === 'public' ? [] : AUTHED), ...hookStatuses(operation.rest.method, operation.auth), ...(operation.rest.problems ?? [])]),
  ];
  if (isStreamOperation(operation)) return { ...operation.rest.responses, ...problems(...failures) };
  const { status, responses, problemSchemas = {} } = operation.rest;
  const success: Record<number, z.ZodType> = { ...(responses ?? { [typeof status === 'number' ? status : 200]: operation.output }) };
  if (success[204]) success[204] = z.null();
  const documented = Object.fromEntries(Object.entries(problemSchemas).map(([code, schema]) => [code, problemResponse(schema)]));
  return { ...success, ...problems(...failures.filter((code) => !(code in documented))), ...documented };
}

/**
 * Every operation as a Fastify route: its path and method, its zod schemas (validation and the
 * OpenAPI document), its guards as route config read by the auth, rate-limit and language hooks.
 * The handler's context is built once those hooks have run (operationContext).
 */
export function mountRest(app: App, contexts: FeatureContexts, tree: OperationTree) {
  for (const [name, operation] of flattenOperations(tree)) {
    const fileBody = isStreamOperation(operation) ? undefined : operation.rest.fileBody;
    // A file body gets its own parsers, in a scope of its own: no other route accepts those media types.
    if (fileBody) void app.register(async (scope) => mountOne(scope as App, contexts, name, operation, fileBody));
    else mountOne(app, contexts, name, operation);
  }
}

function mountOne(app: App, contexts: FeatureContexts, name: string, operation: RegisteredOperation, fileBody?: NonNullable<Operation['rest']['fileBody']>) {
  {
    const { schema, toInput } = restInput(operation);
    const { rest } = operation;
    const bodyLimit = isStreamOperation(operation) ? undefined : (fileBody?.maxBytes ?? operation.rest.bodyLimit);
    if (fileBody) {
      app.addContentTypeParser(fileBody.types, { parseAs: 'buffer', bodyLimit: fileBody.maxBytes }, (_request, body, done) => done(null, body));
    }
    app.route({
      ...(bodyLimit ? { bodyLimit } : {}),
      // Refused from its Content-Length before a byte is read, with the limit stated.
      ...(fileBody
        ? {
            onRequest: async (request: FastifyRequest) => {
              const declared = Number(request.headers['content-length']);
              if (declared > fileBody.maxBytes)
                throw new AppError('payload_too_large', fileBody.tooLarge(declared), { limit: fileBody.maxBytes, size: declared });
            },
          }
        : {}),
      method: rest.method,
      url: rest.path,
      config: {
        auth: operation.auth,
        modelBacked: operation.modelBacked ?? false,
        requiresLanguages: operation.requiresLanguages ?? false,
        ...(operation.bucket ? { bucket: operation.bucket } : {}),
      },
      schema: {
        operationId: name,
        tags: [operation.tag],
        summary: operation.summary,
        ...(rest.description ? { description: rest.description } : {}),
        ...schema,
        response: restResponses(operation),
      },
      handler: async (request, reply) => {
        const input = toInput({ body: request.body, query: request.query, params: request.params, headers: request.headers });
        const ctx = operationContext(contexts, request, reply, request.languages);
        if (isStreamOperation(operation)) {
          const answer = await operation.stream(ctx, input);
          // Not JSON: sent as it is, outside the response schemas, a stream as it is read.
          return reply
            .code(answer.status ?? 200)
            .headers(answer.headers)
            .send(answer.body);
        }
        const output = await operation.handler(ctx, input);
        const { status, headers } = operation.rest;
        const code = typeof status === 'function' ? status(output, input) : (status ?? 200);
        if (headers) reply.headers(headers(output));
        // 204 and 304 carry no body (RFC 9110 §15.3.5, §15.4.5).
        return reply.code(code).send(code === 204 || code === 304 ? null : output);
      },
    });
  }
}
