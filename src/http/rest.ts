import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Em } from '../db/orm.ts';
import type { App, AppDeps } from './deps.ts';
import type { Operation, OperationContext, OperationTree, RestParts } from './operation.ts';
import { flattenOperations, noInput } from './operation.ts';
import { AUTHED, problemResponse, problems } from './problem-responses.ts';

/**
 * The handler's context for a REST request; the guards already ran as hooks (auth, 428). The
 * fork is made on first use: many handlers call a service that forks its own, and a fork costs
 * tens of microseconds on every request.
 */
function restContext(deps: AppDeps, request: FastifyRequest, reply: FastifyReply): OperationContext {
  let em: Em | undefined;
  return { deps, get em() { return (em ??= deps.orm.em.fork()); }, principal: request.principal!, languages: request.languages!, request, reply };
}

/** Request schemas and the input they make, from the operation's REST binding. */
export function restInput(operation: Operation) {
  const { method, input: from = method === 'GET' ? 'query' : 'body' } = operation.rest;
  if (operation.input === noInput) return { schema: {}, toInput: () => undefined };
  switch (from) {
    case 'query': return { schema: { querystring: operation.input }, toInput: (parts: RestParts): unknown => parts.query };
    case 'body': return { schema: { body: operation.input }, toInput: (parts: RestParts): unknown => parts.body };
    case 'params': return { schema: { params: operation.input }, toInput: (parts: RestParts): unknown => parts.params };
    default: {
      const { toInput, ...schema } = from;
      return { schema, toInput };
    }
  }
}

/** Success responses (204 carries no body) and the problems this operation can answer. */
function restResponses(operation: Operation) {
  const { status, responses, problems: extra = [], problemSchemas = {} } = operation.rest;
  const success: Record<number, z.ZodType> = { ...(responses ?? { [typeof status === 'number' ? status : 200]: operation.output }) };
  if (success[204]) success[204] = z.null();
  const failures = operation.auth === 'public' ? extra : [...AUTHED, ...extra];
  const documented = Object.fromEntries(Object.entries(problemSchemas).map(([code, schema]) => [code, problemResponse(schema)]));
  return { ...success, ...problems(...failures.filter((code) => !(code in documented))), ...documented };
}

/**
 * Every operation as a Fastify route: its path and method, its zod schemas (validation and the
 * OpenAPI document), its guards as route config read by the auth, rate-limit and language hooks.
 */
export function mountRest(app: App, deps: AppDeps, tree: OperationTree) {
  for (const [name, operation] of flattenOperations(tree)) {
    const { schema, toInput } = restInput(operation);
    const { rest } = operation;
    app.route({
      method: rest.method,
      url: rest.path,
      config: { auth: operation.auth, modelBacked: operation.modelBacked ?? false, requiresLanguages: operation.requiresLanguages ?? false },
      schema: {
        operationId: name, tags: [operation.tag], summary: operation.summary,
        ...(rest.description ? { description: rest.description } : {}),
        ...schema, response: restResponses(operation),
      },
      handler: async (request, reply) => {
        const input = toInput({ body: request.body, query: request.query, params: request.params, headers: request.headers });
        const output = await operation.handler(restContext(deps, request, reply), input);
        const code = typeof rest.status === 'function' ? rest.status(output, input) : rest.status ?? 200;
        if (rest.headers) reply.headers(rest.headers(output));
        // 204 and 304 carry no body (RFC 9110 §15.3.5, §15.4.5).
        return reply.code(code).send(code === 204 || code === 304 ? null : output);
      },
    });
  }
}
