import { initTRPC, TRPCError, type TRPCMutationProcedure, type TRPCQueryProcedure } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ZodError, type z } from 'zod';
import { AppError, isAppError, problemBody } from '../domain/problems.ts';
import type { FeatureContexts } from '../features/context.ts';
import type { StatusHub } from '../features/status/hub.ts';
import {
  admit,
  isOperation,
  isRestOnly,
  operationContext,
  type AnyJsonOperation,
  type AnyStreamOperation,
  type Operation,
  type OperationContext,
  type OperationTree,
  type RegisteredOperation,
} from './operation.ts';
import type { Principal } from './plugins/auth.ts';
import { requireLanguages } from './plugins/language-guard.ts';
import { answerProblem, catalogErrorOf } from './plugins/problems.ts';
import { assertStorableText } from './plugins/text-guard.ts';

export interface TrpcContext {
  /** The app's maker of feature contexts (src/features/context.ts), as REST has it. */
  contexts: FeatureContexts;
  request: FastifyRequest;
  reply: FastifyReply;
  /** This process's live status announcements, for the `status.changes` stream. */
  statusHub: StatusHub;
}

const TRPC_CODE: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  402: 'PAYMENT_REQUIRED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  422: 'UNPROCESSABLE_CONTENT',
  428: 'PRECONDITION_REQUIRED',
  429: 'TOO_MANY_REQUESTS',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
};

/** The problem a tRPC error stands for: catalog errors as they are, invalid input as REST's 400. */
function problemOf(error: TRPCError) {
  if (isAppError(error.cause)) return problemBody(error.cause);
  if (error.cause instanceof ZodError) {
    const errors = error.cause.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
    return problemBody(new AppError('invalid_request', 'The request input is invalid.', { errors }));
  }
  return null;
}

/** tRPC reports catalog errors with the same `code` and problem body as REST (under `data.problem`). */
const t = initTRPC.context<TrpcContext>().create({
  // Never send stack traces to clients, whatever NODE_ENV says.
  isDev: false,
  sse: {
    // A comment line now and then keeps idle streams open through proxies; a client that hears
    // nothing for longer reconnects. A stream lasts at most maxDurationMs and the client then
    // opens another, whose auth is checked anew: a signed-out session stops hearing within that.
    ping: { enabled: true, intervalMs: 20_000 },
    client: { reconnectAfterInactivityMs: 45_000 },
    maxDurationMs: 5 * 60_000,
  },
  errorFormatter({ shape, error }) {
    return { ...shape, data: { ...shape.data, problem: problemOf(error) } };
  },
});

/** A catalog error (or the database being away, as REST answers it) keeps its status, code and Retry-After. */
const toTrpcErrors = t.middleware(async ({ ctx, next }) => {
  const result = await next();
  const cause = result.ok ? null : catalogErrorOf(result.error.cause);
  if (cause) {
    answerProblem(ctx.reply, cause);
    throw new TRPCError({ code: TRPC_CODE[cause.status] ?? 'INTERNAL_SERVER_ERROR', message: cause.message, cause });
  }
  return result;
});

/**
 * An operation as a procedure: its auth level first (the transport hands the body over unread, so
 * who asks is checked before a byte of it is read), then the same refusal of NUL and unpaired
 * surrogates as REST (src/http/plugins/text-guard.ts), then the 428 guard; then the handler's
 * context, as REST builds it (operationContext). `.input()` and `.output()` are the operation's schemas.
 */
function procedureOf(operation: Operation) {
  const procedure = t.procedure
    .use(toTrpcErrors)
    .use(async ({ ctx, getRawInput, next }) => {
      const principal = ctx.request.principal;
      admit(operation.auth, principal);
      assertStorableText(await getRawInput());
      const languages = operation.requiresLanguages ? requireLanguages(principal!) : null;
      return next({ ctx: operationContext(ctx.contexts, ctx.request, ctx.reply, languages) });
    })
    .input(operation.input)
    .output(operation.output);
  const resolve = ({ ctx, input }: { ctx: OperationContext; input: unknown }) => operation.handler(ctx, input);
  return operation.rest.method === 'GET' ? procedure.query(resolve) : procedure.mutation(resolve);
}

/**
 * A live feed, tRPC only (a subscription, served as text/event-stream): any principal that may
 * call a query (a page session or a token), checked when the stream opens; the feed is given the
 * caller's principal, so it can only ever read the caller's own events.
 */
export function feedOf<T>(feed: (ctx: TrpcContext & { principal: Principal }, signal: AbortSignal) => AsyncGenerator<T>) {
  return t.procedure
    .use(toTrpcErrors)
    .use(({ ctx, next }) => {
      admit('read', ctx.request.principal);
      return next({ ctx: { ...ctx, principal: ctx.request.principal! } });
    })
    .subscription(({ ctx, signal }) => endingAsProblems(feed(ctx, signal!)));
}

/**
 * A feed whose catalog error (a revoked credential's `unauthenticated`) ends the stream as that
 * problem with its own status: tRPC wraps anything else thrown mid-stream as a 500.
 */
async function* endingAsProblems<T>(events: AsyncGenerator<T>): AsyncGenerator<T> {
  try {
    yield* events;
  } catch (error) {
    if (!isAppError(error)) throw error;
    throw new TRPCError({ code: TRPC_CODE[error.status] ?? 'INTERNAL_SERVER_ERROR', message: error.message, cause: error });
  }
}

type ProcedureOf<T> =
  T extends Operation<infer I, infer O, infer _A, infer _L, infer M>
    ? M extends 'GET'
      ? TRPCQueryProcedure<{ input: z.input<I>; output: z.output<O>; meta: object }>
      : TRPCMutationProcedure<{ input: z.input<I>; output: z.output<O>; meta: object }>
    : never;

/** The tRPC record of an operation tree: procedures typed by their operations' schemas; REST-only streams have none. */
export type ProceduresOf<T> = {
  [K in keyof T as T[K] extends AnyStreamOperation ? never : T[K] extends { rest: { fileBody: object } } ? never : K]: T[K] extends AnyJsonOperation
    ? ProcedureOf<T[K]>
    : ProceduresOf<T[K]>;
};

function proceduresOf<T extends OperationTree>(tree: T): ProceduresOf<T> {
  const entries = Object.entries(tree).filter(([, node]) => !(isOperation(node) && isRestOnly(node as RegisteredOperation)));
  return Object.fromEntries(entries.map(([key, node]) => [key, isOperation(node) ? procedureOf(node as Operation) : proceduresOf(node)])) as ProceduresOf<T>;
}

/** Every operation of the tree as a tRPC procedure at its name (`library.capture`), and the tRPC-only feeds. */
export const trpcRouterOf = <T extends OperationTree, F extends Record<string, Record<string, ReturnType<typeof feedOf<unknown>>>>>(tree: T, feeds: F) =>
  t.router({ ...proceduresOf(tree), ...feeds });
