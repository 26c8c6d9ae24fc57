/**
 * A tiny client for the service: tRPC 11's HTTP protocol without batching, and the REST routes
 * that set or clear the session cookie. Same origin, so the browser sends the cookie and, on
 * POSTs, the Origin header the CSRF check wants.
 *
 *   query:    GET  /trpc/<path>?input=<encodeURIComponent(JSON.stringify(input))>
 *   mutation: POST /trpc/<path> with the JSON input as the body
 *   answer:   { result: { data } } or { error: { message, code, data: { code, httpStatus, problem } } }
 */

/** A refusal from the service, carrying its RFC 9457 problem (`status`, `code`, `detail`, `errors`). */
export class ServiceError extends Error {
  constructor(problem) {
    super(describeProblem(problem));
    this.name = 'ServiceError';
    this.status = problem.status;
    this.code = problem.code;
    this.problem = problem;
  }
}

/** The problem's detail, followed by each invalid field ("password: at least 10 characters"). */
export function describeProblem(problem) {
  const fields = (problem.errors ?? []).map((e) => (e.path ? `${e.path}: ${e.message}` : e.message));
  return [problem.detail ?? problem.title ?? 'Something went wrong.', ...fields].join(' ');
}

const NETWORK_PROBLEM = { status: 0, code: 'network_error', detail: 'The service cannot be reached. Check your connection and try again.' };

async function send(method, url, body) {
  const init = { method, headers: { accept: 'application/json' }, credentials: 'same-origin' };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch {
    throw new ServiceError(NETWORK_PROBLEM);
  }
  const text = await response.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch { /* not JSON: described by its status below */ }
  return { response, json };
}

function problemOf(response, json) {
  // tRPC's error envelope carries the same problem body as REST under data.problem.
  if (json?.error) {
    const data = json.error.data ?? {};
    return data.problem ?? { status: data.httpStatus ?? response.status, code: String(data.code ?? 'error'), detail: json.error.message };
  }
  // The hooks in front of both REST and tRPC (CSRF, rate limit) answer with a plain problem.
  if (json && typeof json.detail === 'string') return json;
  return { status: response.status, code: 'unexpected_response', detail: `The service answered ${response.status} ${response.statusText}. Please try again.` };
}

export async function query(path, input) {
  const search = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const { response, json } = await send('GET', `/trpc/${path}${search}`);
  if (response.ok && json && 'result' in json) return json.result.data;
  throw new ServiceError(problemOf(response, json));
}

export async function mutate(path, input) {
  const { response, json } = await send('POST', `/trpc/${path}`, input);
  if (response.ok && json && 'result' in json) return json.result.data;
  throw new ServiceError(problemOf(response, json));
}

/** REST, for the routes that set the cookie (/api/auth/*). */
export async function rest(method, path, body) {
  const { response, json } = await send(method, path, body);
  if (response.ok) return json;
  throw new ServiceError(problemOf(response, json));
}
