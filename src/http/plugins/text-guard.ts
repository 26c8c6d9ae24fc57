import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../domain/problems.ts';

/**
 * PostgreSQL text and jsonb cannot hold U+0000: a NUL in an input string would reach the
 * database and fail there as a 500 (for some routes after a model call). An unpaired surrogate
 * is not text either: it would be stored silently as U+FFFD, so what was saved is not what was
 * sent. No field of this API has a use for either, so both are refused up front as a 400.
 *
 * Walks with an explicit stack: a deeply nested JSON body must not overflow the call stack.
 * Bytes (an import's file, a Buffer body) are not walked: they hold no strings, and walking a
 * 20 MB Buffer key by key took 80 s and 4 GB of the API (`npm run bench imports`). Their text is
 * checked where it is decoded.
 */
export function unstorableTextPath(value: unknown): string | null {
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (pending.length > 0) {
    const { value: current, path } = pending.pop()!;
    if (typeof current === 'string') {
      if (current.includes('\u0000') || !current.isWellFormed()) return path;
    } else if (current !== null && typeof current === 'object' && !ArrayBuffer.isView(current) && !(current instanceof ArrayBuffer)) {
      for (const [key, child] of Object.entries(current)) pending.push({ value: child, path: path ? `${path}.${key}` : key });
    }
  }
  return null;
}

export function assertStorableText(...inputs: unknown[]): void {
  for (const input of inputs) {
    const path = unstorableTextPath(input);
    if (path !== null) {
      throw new AppError('invalid_request', 'Text must not contain the NUL character (U+0000) or unpaired surrogates.', {
        errors: [{ path, message: 'contains U+0000 or an unpaired surrogate' }],
      });
    }
  }
}

/**
 * REST routes, checked after validation: only the fields a route reads (unknown fields are
 * ignored, as everywhere). tRPC checks its own input (src/http/trpc.ts) to answer in its shape.
 */
export const textGuardPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('preHandler', async (request) => {
      if (request.routeOptions.url?.startsWith('/trpc')) return;
      assertStorableText(request.params, request.query, request.body);
    });
  },
  { name: 'text-guard' },
);

type JsonSchema = Record<string, unknown>;
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;

/**
 * The same rule in the OpenAPI document: every string a request carries (parameters, bodies and
 * the components they use) states that it has no U+0000. Unpaired surrogates need no statement:
 * JSON Schema strings are Unicode text, which they are not.
 */
export function documentStorableText(document: { paths?: unknown; components?: unknown }): void {
  const components = (document.components as { schemas?: Record<string, JsonSchema> } | undefined)?.schemas ?? {};
  const seen = new Set<JsonSchema>();
  const visit = (schema: unknown): void => {
    if (schema === null || typeof schema !== 'object' || seen.has(schema as JsonSchema)) return;
    const node = schema as JsonSchema;
    seen.add(node);
    if (typeof node.$ref === 'string') visit(components[node.$ref.replace('#/components/schemas/', '')]);
    const types = ([] as unknown[]).concat(node.type);
    if (types.includes('string') && node.enum === undefined && node.const === undefined) node.not = { pattern: '\\u0000' };
    for (const child of Object.values((node.properties as Record<string, unknown> | undefined) ?? {})) visit(child);
    visit(node.items);
    for (const list of SUBSCHEMA_LISTS) for (const child of (node[list] as unknown[] | undefined) ?? []) visit(child);
  };
  for (const item of Object.values((document.paths ?? {}) as Record<string, Record<string, JsonSchema>>)) {
    for (const op of Object.values(item)) {
      for (const parameter of (op.parameters as { schema?: unknown }[] | undefined) ?? []) visit(parameter.schema);
      for (const media of Object.values((op.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined)?.content ?? {})) visit(media.schema);
    }
  }
}
