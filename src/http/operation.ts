import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../domain/problems.ts';
import type { FeatureContext, FeatureContexts } from '../features/context.ts';
import type { Principal } from './plugins/auth.ts';
import type { LearnerLanguages } from './plugins/language-guard.ts';

/**
 * Who may call an operation. `public`: nobody is looked up. `read`: a page session or any token
 * (a GET, a tRPC query). `write`: a page session or a write token. `session`: a page session only
 * (minting and revoking tokens, changing the password).
 */
export type AuthLevel = 'public' | 'read' | 'write' | 'session';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * What a handler gets, the same over REST and tRPC (both run inside Fastify): the feature context
 * its services take first (src/features/context.ts), who asks, and what only HTTP has.
 */
export interface OperationContext<A extends AuthLevel = AuthLevel, L extends boolean = boolean> extends FeatureContext {
  principal: A extends 'public' ? null : Principal;
  /** Both languages, for operations that need them (the 428 guard ran). */
  languages: L extends true ? LearnerLanguages : null;
  /** For what only HTTP has: the client address, the session cookie. */
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * A handler's context, built the same way by both transports once the guards have run: eagerly,
 * with a fresh EntityManager, since every operation but one reads the database (and tRPC spreads
 * its contexts, which would run a lazy getter anyway). The request's logger is the services' log.
 */
export function operationContext(
  contexts: FeatureContexts,
  request: FastifyRequest,
  reply: FastifyReply,
  languages: LearnerLanguages | null,
): OperationContext {
  return { ...contexts(request.log), principal: request.principal!, languages, request, reply };
}

/** The request parts REST validated, for operations whose input is not simply the body or query. */
export interface RestParts {
  body: unknown;
  query: unknown;
  params: unknown;
  headers: unknown;
}

/** REST's schemas for each part of a request, and how the validated parts make the input. */
export interface RestInputParts<I = unknown> {
  body?: z.ZodType;
  querystring?: z.ZodType;
  params?: z.ZodType;
  headers?: z.ZodType;
  toInput: (parts: RestParts) => I;
}

/** A part as its schema types it once validated, or as it comes when it has no schema. */
type Validated<S, Unvalidated> = S extends z.ZodType ? z.output<S> : Unvalidated;

/**
 * An input that REST reads from several parts. Fastify validates each part with its schema before
 * `toInput` runs, so `toInput` reads the parts as those schemas type them.
 */
export function restParts<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
  H extends z.ZodType | undefined = undefined,
  const I = unknown,
>(parts: {
  body?: B;
  querystring?: Q;
  params?: P;
  headers?: H;
  toInput: (parts: {
    body: Validated<B, unknown>;
    query: Validated<Q, unknown>;
    params: Validated<P, unknown>;
    headers: Validated<H, FastifyRequest['headers']>;
  }) => I;
}): RestInputParts<I> {
  return parts as RestInputParts<I>;
}

/** An OpenAPI 3.1 Link Object: the operation it leads to and where its inputs come from (runtime expressions). */
interface OpenApiLink {
  operationId: string;
  /** By parameter name, `path.`/`query.`-qualified where a name is ambiguous, e.g. `{ 'path.cardId': '$response.body#/card/cardId' }`. */
  parameters?: Record<string, string>;
  /** The body, whose members may be runtime expressions. */
  requestBody?: Record<string, unknown>;
  description?: string;
}

interface RestBinding<I extends z.ZodType, O extends z.ZodType> {
  method: HttpMethod;
  /** Fastify's path syntax (`/api/library/:cardId`). */
  path: string;
  /**
   * Where REST reads the input: by default the query string for GET and the body otherwise;
   * `params` for a path parameter. Otherwise the schemas of each part and how they make the input.
   */
  input?: 'query' | 'body' | 'params' | RestInputParts<z.output<I>>;
  /** The success status, 200 by default; a status that carries meaning (202 vs 200) is REST's. */
  status?: number | ((output: z.output<O>, input: z.output<I>) => number);
  /** The response schema per success status when REST shows a status its own part of the output. */
  responses?: Record<number, z.ZodType>;
  /** Problem statuses for the API reference beyond those of every authenticated operation. */
  problems?: number[];
  /** Extended problem documents, by status, for the API reference. */
  problemSchemas?: Record<number, z.ZodType>;
  /**
   * OpenAPI links, by success status: which operations can use what this answer returns (e.g. a
   * capture's `cardId`), so that generated clients and stateful tests can follow them.
   */
  links?: Record<number, Record<string, OpenApiLink>>;
  /** A larger body than BODY_LIMIT_BYTES, for the one operation that takes a long list (an import), on both transports. */
  bodyLimit?: number;
  /**
   * REST only: the body is a file of one of these media types, up to `maxBytes`, handed to
   * `input.toInput` as a Buffer (an import's file). A body declared longer is refused before it
   * is read, with the limit stated. tRPC has no such procedure.
   */
  fileBody?: { types: string[]; maxBytes: number; tooLarge: (bytes: number) => string };
  /** Response headers that say what tRPC puts in the body (e.g. `Idempotent-Replayed`). */
  headers?: (output: z.output<O>) => Record<string, string>;
  description?: string;
}

/** What every operation says of itself: its documentation, its guards, its input. */
interface OperationBase<I extends z.ZodType, A extends AuthLevel, L extends boolean> {
  summary: string;
  tag: string;
  auth: A;
  /** Counted in the tighter model rate-limit bucket. */
  modelBacked?: boolean;
  /** Counted in a rate-limit bucket of its own (the export: each reads the whole library). */
  bucket?: 'export';
  /** Answers 428 until both languages are set. */
  requiresLanguages?: L;
  input: I;
}

/**
 * One operation, defined once: REST (src/http/rest.ts) and tRPC (src/http/trpc.ts) both mount it,
 * with the same guards, input and output. Its name is its key in the feature's operations record,
 * which is also its tRPC path and its OpenAPI operationId.
 */
export interface Operation<
  I extends z.ZodType = z.ZodType,
  O extends z.ZodType = z.ZodType,
  A extends AuthLevel = AuthLevel,
  L extends boolean = boolean,
  M extends HttpMethod = HttpMethod,
> extends OperationBase<I, A, L> {
  output: O;
  rest: RestBinding<I, O> & { method: M };
  handler(ctx: OperationContext<A, L>, input: z.output<I>): Promise<z.input<O>> | z.input<O>;
}

/** An answer that is not JSON: a file or bytes, sent as they are (a stream as it is read). */
export interface StreamedAnswer {
  /** 200 unless given (206 for a byte range). */
  status?: number;
  /** `content-type` among them; `content-length` when it is known. */
  headers: Record<string, string | number>;
  body: Readable | Buffer;
}

/** How the API reference shows a streamed answer: what it is, in which media types. */
export interface StreamedResponse {
  description: string;
  content: Record<string, { schema: z.ZodType }>;
}

/**
 * An operation whose answer is a stream or bytes (the library export, audio bytes): REST only,
 * mounted by src/http/rest.ts with the same guards, problems and API reference as every other;
 * tRPC clients fetch its URL. Its input is read and validated as any operation's.
 */
export interface StreamOperation<I extends z.ZodType = z.ZodType, A extends AuthLevel = AuthLevel, L extends boolean = boolean> extends OperationBase<I, A, L> {
  rest: Pick<RestBinding<I, z.ZodType>, 'path' | 'input' | 'problems' | 'description'> & {
    method: 'GET';
    /** The success answers by status, for the API reference (a zod schema for one without a file, e.g. a 304's null). */
    responses: Record<number, StreamedResponse | z.ZodType>;
  };
  stream(ctx: OperationContext<A, L>, input: z.output<I>): Promise<StreamedAnswer>;
}

/** The input of operations that take none (REST: no body, no query). */
export const noInput = z.void();

/* eslint-disable @typescript-eslint/no-explicit-any -- a registry holds operations of every shape; defineOperation checked each against its own types */
export type AnyJsonOperation = Operation<any, any, any, any, any>;
export type AnyStreamOperation = StreamOperation<any, any, any>;
/* eslint-enable @typescript-eslint/no-explicit-any */
export type AnyOperation = AnyJsonOperation | AnyStreamOperation;

/** Any operation, seen through the types every operation shares. */
export type RegisteredOperation = Operation | StreamOperation;

/** A feature's operations, keyed by name; a nested record is a tRPC sub-router (`account.tokens.list`). */
export interface OperationTree {
  [name: string]: AnyOperation | OperationTree;
}

/**
 * A read token may only GET (src/http/plugins/auth.ts refuses its other methods before any body
 * is read): so a `read` operation is exactly a GET, and a `write` one never is.
 */
function checkAuth(operation: { summary: string; auth: AuthLevel; rest: { method: HttpMethod } }): void {
  const isGet = operation.rest.method === 'GET';
  if ((operation.auth === 'read' && !isGet) || (operation.auth === 'write' && isGet)) {
    throw new Error(`${operation.summary}: a ${operation.auth} operation cannot be ${operation.rest.method}`);
  }
}

export function defineOperation<I extends z.ZodType, O extends z.ZodType, A extends AuthLevel, M extends HttpMethod, L extends boolean = false>(
  operation: Operation<I, O, A, L, M>,
): Operation<I, O, A, L, M> {
  checkAuth(operation);
  return operation;
}

export function defineStreamOperation<I extends z.ZodType, A extends AuthLevel, L extends boolean = false>(
  operation: StreamOperation<I, A, L>,
): StreamOperation<I, A, L> {
  checkAuth(operation);
  return operation;
}

export const isOperation = (node: AnyOperation | OperationTree): node is AnyOperation =>
  typeof (node as { handler?: unknown }).handler === 'function' || typeof (node as { stream?: unknown }).stream === 'function';

/** Whether an operation answers with a stream or bytes (REST only) rather than JSON. */
export const isStreamOperation = (operation: RegisteredOperation): operation is StreamOperation => 'stream' in operation;

/** Every operation of a tree with its dotted name, seen through the types every operation shares. */
export function flattenOperations(tree: OperationTree, prefix = ''): [string, RegisteredOperation][] {
  return Object.entries(tree).flatMap(([key, node]) => {
    const name = prefix ? `${prefix}.${key}` : key;
    return isOperation(node) ? [[name, node as RegisteredOperation]] : flattenOperations(node, name);
  });
}

/** Whether an operation is REST only: a stream answer, or a file body. */
export const isRestOnly = (operation: RegisteredOperation): boolean => isStreamOperation(operation) || Boolean(operation.rest.fileBody);

/** The operations both transports mount, with their dotted names: every one but the REST-only streams and files. */
export const jsonOperations = (tree: OperationTree): [string, Operation][] =>
  flattenOperations(tree).filter((entry): entry is [string, Operation] => !isRestOnly(entry[1]));

/**
 * The operation's guard on who asks, applied by both transports: REST in its `onRequest` hook,
 * tRPC in its procedure middleware. The 428 guard is `requireLanguages`, likewise shared.
 */
export function admit(level: AuthLevel | 'optional', principal: Principal | null): void {
  if (level === 'public' || level === 'optional') return;
  if (!principal) throw new AppError('unauthenticated', 'Sign in, or send Authorization: Bearer <token>.');
  if (level === 'session' && principal.via !== 'session') {
    throw new AppError('forbidden', 'Tokens are managed from a signed-in page session; a token cannot mint or revoke tokens.');
  }
}
