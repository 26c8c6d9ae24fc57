import { z } from 'zod';
import { isRecord } from './exact-json.ts';

const schemaCache = new WeakMap<z.ZodType, Record<string, unknown>>();

/**
 * The JSON schema of what the model must produce, i.e. the zod schema's *input* side, adjusted
 * for OpenAI strict mode: every object closed and every property listed as required (an
 * optional zod field still accepts the value the model is then forced to give). Keywords strict
 * mode rejects are dropped; zod still enforces them on the answer.
 */
export function strictJsonSchema(schema: z.ZodType): Record<string, unknown> {
  let cached = schemaCache.get(schema);
  if (!cached) {
    const raw = z.toJSONSchema(schema, { target: 'draft-7', io: 'input', unrepresentable: 'any' });
    const { $schema: _ignored, ...rest } = strictify(raw) as Record<string, unknown>;
    cached = rest;
    schemaCache.set(schema, cached);
  }
  return cached;
}

const UNSUPPORTED_IN_STRICT = new Set([
  'default',
  'minLength',
  'maxLength',
  'propertyNames',
  'patternProperties',
  'minProperties',
  'maxProperties',
  'uniqueItems',
]);

function strictify(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strictify);
  if (!isRecord(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (UNSUPPORTED_IN_STRICT.has(key)) continue;
    // `properties`, `definitions` and `$defs` map names to schemas; the names are not keywords.
    out[key] =
      (key === 'properties' || key === 'definitions' || key === '$defs') && isRecord(value)
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strictify(v)]))
        : strictify(value);
  }
  if (isRecord(out.properties)) {
    out.required = Object.keys(out.properties);
    if (!isRecord(out.additionalProperties)) out.additionalProperties = false;
  }
  return out;
}
