/**
 * The suite's clients of a running service.
 *
 * `api` is the product's own typed REST client (openapi-fetch over the types generated from the
 * OpenAPI document), so a renamed path, parameter or field fails the type-check of the tests. Its
 * answers keep what a test asserts on: the status, the headers, the parsed body (typed by status:
 * narrow with `expectStatus`, `bodyOf` or `expectProblem`) and the text.
 *
 * `rawHttp` sends what a typed client must not be able to send: malformed JSON, wrong types,
 * unknown fields, paths or methods, hostile or oversized bodies, header games, and tRPC's own wire.
 *
 * Both fail the test at the call that gets a 5xx it did not declare in `expected5xx`: a 500 is a bug.
 */
import { expect } from 'vitest';
import { mergeHeaders, type FetchOptions, type HeadersOptions } from 'openapi-fetch';
import { createRestClient, type paths, type Problem } from '../../clients/rest/client.ts';

/** A running service, as a client reaches it. */
export interface Target {
  baseUrl: string;
  /** The service's own origin, when it is not `baseUrl`'s (e.g. `localhost` for 127.0.0.1). */
  origin?: string;
  /** Headers every request carries (e.g. the client address a proxy forwards). */
  headers?: Record<string, string>;
}

export interface ClientOptions {
  /** A personal API token, sent as `Authorization: Bearer`. */
  token?: string;
  /** A page session's cookie (`lcs_session=…`). */
  cookie?: string;
  /**
   * The Origin header. With a cookie it is the service's own unless given, as a browser on the
   * service's page sends it (cookie-authenticated writes need it); null sends none.
   */
  origin?: string | null;
  /** The 5xx statuses the test provokes on purpose (a provider or the database away); any other fails the test at the call. */
  expected5xx?: number[];
}

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';
type PathsWith<M extends Method> = { [P in keyof paths]: paths[P] extends { [K in M]: object } ? P : never }[keyof paths];
type Operation<P extends keyof paths, M extends Method> = paths[P] extends { [K in M]: infer Op } ? Op : never;
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type Init<Op> = FetchOptions<Op>;
/** The init argument may be left out when nothing in it is required (no path parameter, no required body). */
type InitArgs<Op> = [RequiredKeys<Init<Op>>] extends [never] ? [init?: Init<Op>] : [init: Init<Op>];

type Responses<Op> = Op extends { responses: infer R } ? R : never;
type Content<R> = R extends { content: infer C } ? C[keyof C] : null;
/** One answer of an operation, as the document declares it: its status says its body's type. */
type Reply<Op> = {
  [S in keyof Responses<Op>]: { status: S; headers: Headers; body: Content<Responses<Op>[S]>; text: string };
}[keyof Responses<Op>];
/** An answer to a raw request: nothing is known of its body. */
export interface RawReply {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}
/** Any answer, typed or raw. */
export type AnyReply = { status: unknown; headers: Headers; body: unknown; text: string };

type Call<M extends Method> = <P extends PathsWith<M>>(path: P, ...init: InitArgs<Operation<P, M>>) => Promise<Reply<Operation<P, M>>>;
export interface Api {
  GET: Call<'get'>;
  PUT: Call<'put'>;
  POST: Call<'post'>;
  DELETE: Call<'delete'>;
  PATCH: Call<'patch'>;
}

/** The typed REST client of `target`, authenticated as `options` says. */
export function api(target: Target, options: ClientOptions = {}): Api {
  const texts = new WeakMap<Response, string>();
  const rest = createRestClient({
    baseUrl: target.baseUrl,
    token: options.token,
    // The text is kept as it came (a test may assert on it); openapi-fetch reads the original.
    fetch: async (request) => {
      const response = await fetch(request);
      texts.set(response, await response.clone().text());
      return response;
    },
  });
  const defaults = authHeaders(target, options);
  // `Api` types each call; inside, one function serves every path, so openapi-fetch's own generics
  // are bypassed. It must not parse either: a CSV or an audio body is the test's to read.
  const call =
    (method: Uppercase<Method>) =>
    async (path: string, init: { headers?: HeadersOptions } = {}) => {
      const sent = { ...init, headers: mergeHeaders(defaults, init.headers), parseAs: 'stream' };
      const { response } = await rest.request(method as never, path as never, sent as never);
      return reply(method, path, response.status, response.headers, texts.get(response)!, options);
    };
  return { GET: call('GET'), PUT: call('PUT'), POST: call('POST'), DELETE: call('DELETE'), PATCH: call('PATCH') } as unknown as Api;
}

export interface RawOptions extends ClientOptions {
  /** Sent as JSON, whatever its shape. */
  body?: unknown;
  /** Sent as it is (set the content type in `headers`). */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

/** One request the typed client must not be able to send: any method, any path, any body, any headers. */
export async function rawHttp(target: Target, method: string, path: string, options: RawOptions = {}): Promise<RawReply> {
  const headers = mergeHeaders(authHeaders(target, options), options.headers);
  let body: string | Buffer | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  }
  const res = await fetch(target.baseUrl + path, { method, headers, body });
  return reply(method, path, res.status, res.headers, await res.text(), options);
}

function authHeaders(target: Target, { token, cookie, origin }: ClientOptions): Record<string, string> {
  const headers: Record<string, string> = { ...target.headers };
  if (token) headers.authorization = `Bearer ${token}`;
  if (cookie) headers.cookie = cookie;
  const sent = origin === undefined && cookie ? (target.origin ?? target.baseUrl) : origin;
  if (sent) headers.origin = sent;
  return headers;
}

function reply(method: string, path: string, status: number, headers: Headers, text: string, { expected5xx = [] }: ClientOptions): RawReply {
  if (status >= 500 && !expected5xx.includes(status)) {
    expect(status, `${method} ${path} answered ${status}: ${text}`).toBeLessThan(500);
  }
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status, headers, body, text };
}

/** The replies among `R` whose status is one of `S` (a raw reply, whose status is any number, stays as it is). */
type WithStatus<R, S> = R extends { status: infer T } ? (number extends T ? R : T extends S ? R : never) : never;

/** Asserts the status (showing the body when it differs); the reply's body then has that status's type. */
export function expectStatus<R extends AnyReply, const S extends R['status']>(res: R, ...statuses: [S, ...S[]]): asserts res is WithStatus<R, S> {
  if (statuses.length === 1) expect(res.status, res.text).toBe(statuses[0]);
  else expect(res.status, res.text).toBeOneOf(statuses);
}

/** The body of an answer that must have one of `statuses`, typed as the document declares it. */
export function bodyOf<R extends AnyReply, const S extends R['status']>(res: R, ...statuses: [S, ...S[]]): WithStatus<R, S>['body'] {
  expectStatus(res, ...statuses);
  return res.body;
}

/** The problem replies among `R` with status `S`; any problem reply when the document does not declare `S`. */
type ProblemReply<R, S> = [WithStatus<R, S>] extends [never] ? Extract<R, { body: Problem }> : WithStatus<R, S>;

/** Asserts an RFC 9457 problem with the given status and code; the reply's body then has that status's type. */
export function expectProblem<R extends AnyReply, const S extends number>(res: R, status: S, code: string): asserts res is ProblemReply<R, S> {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ status, code, type: expect.any(String), title: expect.any(String), detail: expect.any(String) });
}
