import type { z } from 'zod';
import type { OperationTree } from './operation.ts';
import { flattenOperations, isStreamOperation } from './operation.ts';
import { restInput } from './rest.ts';
import { documentStorableText } from './plugins/text-guard.ts';

interface DocumentedOperation {
  operationId?: string;
  requestBody?: { required?: boolean };
  responses?: Record<string, Record<string, unknown>>;
}

/**
 * What the generated OpenAPI document needs beyond the zod schemas of each route (the zod
 * transform keeps only schemas and descriptions, and @fastify/swagger calls every body required):
 * each operation's `rest.links`, `requestBody.required: false` where the body may be left out, and
 * the text guard's rule on every string a request carries. A link to an operation the document
 * does not have fails the document, not a client.
 */
export function completeDocument<D extends { paths?: unknown; components?: unknown }>(document: D, trees: OperationTree[]): D {
  const definitions = new Map(trees.flatMap((tree) => flattenOperations(tree)));
  const paths = (document.paths ?? {}) as Record<string, Record<string, DocumentedOperation>>;
  const documented = Object.values(paths).flatMap((item) => Object.values(item));
  const ids = new Set(documented.map((op) => op.operationId));
  for (const op of documented) {
    const definition = op.operationId ? definitions.get(op.operationId) : undefined;
    if (!definition) continue;
    const body = (restInput(definition).schema as { body?: z.ZodType }).body;
    if (op.requestBody && body?.safeParse(undefined).success) op.requestBody.required = false;
    for (const [status, links] of Object.entries((isStreamOperation(definition) ? undefined : definition.rest.links) ?? {})) {
      const response = op.responses?.[status];
      if (!response) throw new Error(`${op.operationId}: links for status ${status}, which it does not answer`);
      for (const [name, link] of Object.entries(links)) {
        if (!ids.has(link.operationId)) throw new Error(`${op.operationId}: link ${name} leads to unknown operation ${link.operationId}`);
      }
      response.links = links;
    }
  }
  documentStorableText(document);
  return document;
}
