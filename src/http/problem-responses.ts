import { z } from 'zod';

export const problemSchema = z
  // Loose: problems carry extension members (e.g. `existingId`) that the serializer must keep.
  .looseObject({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string(),
    instance: z.string().optional(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    retryAfterSeconds: z.number().int().optional().meta({ description: 'Seconds to wait before asking again; also the Retry-After header.' }),
  })
  .meta({ id: 'Problem', description: 'RFC 9457 problem details; `code` is a stable machine word.' });

/**
 * A problem response under the media type it is actually sent with (`sendProblem`:
 * `application/problem+json`), so the OpenAPI document does not claim `application/json`.
 */
export const problemResponse = <S extends z.ZodType>(schema: S) => ({ content: { 'application/problem+json': { schema } } });

/** Problem responses a route can produce, for the OpenAPI document. */
export const problems = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, problemResponse(problemSchema)])) as Record<number, ReturnType<typeof problemResponse<typeof problemSchema>>>;

/** The statuses every authenticated route can answer. */
export const AUTHED = [400, 401, 403, 429] as const;

/**
 * What the app's own hooks can answer on a route, whatever its handler does, as the document must
 * say: the address limit (429, before any credential) and a lost database (503, on any route that
 * reads it); on a method that may carry a body, Fastify's JSON-only parser and body limit (400,
 * 413, 415), even where the route takes none; on a public write, the origin check (403).
 */
export function hookStatuses(method: string, auth: string): number[] {
  const bodied = method !== 'GET' && method !== 'HEAD';
  return [429, 503, ...(bodied ? [400, 413, 415] : []), ...(bodied && auth === 'public' ? [403] : [])];
}
