import { initTRPC, TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { AppError, isAppError, problemBody } from '../../domain/problems.ts';
import type { AppDeps } from '../../http/deps.ts';
import { requireLanguages } from '../../http/plugins/language-guard.ts';
import { answerProblem, catalogErrorOf } from '../../http/plugins/problems.ts';
import { assertStorableText } from '../../http/plugins/text-guard.ts';

export interface TrpcContext {
  deps: AppDeps;
  request: FastifyRequest;
  reply: FastifyReply;
}

const TRPC_CODE: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST', 401: 'UNAUTHORIZED', 402: 'PAYMENT_REQUIRED', 403: 'FORBIDDEN', 404: 'NOT_FOUND',
  409: 'CONFLICT', 413: 'PAYLOAD_TOO_LARGE', 422: 'UNPROCESSABLE_CONTENT', 428: 'PRECONDITION_REQUIRED',
  429: 'TOO_MANY_REQUESTS', 502: 'BAD_GATEWAY', 503: 'SERVICE_UNAVAILABLE',
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

export interface ProcedureMeta {
  /** Counted in the tighter model rate-limit bucket, by the transport (src/api/trpc/plugin.ts). */
  modelBacked?: boolean;
}

/** tRPC reports catalog errors with the same `code` and problem body as REST (under `data.problem`). */
const t = initTRPC.context<TrpcContext>().meta<ProcedureMeta>().create({
  // Never send stack traces to clients, whatever NODE_ENV says.
  isDev: false,
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
 * The same refusal of NUL and unpaired surrogates as REST (src/api/plugins/text-guard.ts). It is
 * the first reader of the input: the transport hands the body over unread, so a procedure that
 * needs a principal checks it before this reads a byte.
 */
const storableInput = t.middleware(async ({ getRawInput, next }) => {
  assertStorableText(await getRawInput());
  return next();
});

export const router = t.router;
export const publicProcedure = t.procedure.use(toTrpcErrors).use(storableInput);

export const authedProcedure = t.procedure
  .use(toTrpcErrors)
  .use(({ ctx, next }) => {
    const principal = ctx.request.principal;
    if (!principal) throw new AppError('unauthenticated', 'Sign in first.');
    return next({ ctx: { ...ctx, principal, em: ctx.deps.orm.em.fork() } });
  })
  .use(storableInput);

export const sessionProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.principal.via !== 'session') throw new AppError('forbidden', 'A token cannot manage tokens.');
  return next();
});

/** Model-backed work, in the model bucket like its REST twin (audio: no language needed). */
export const modelBackedProcedure = authedProcedure.meta({ modelBacked: true });

/** Capture, translation and work: the model bucket, and 428 until languages are set. */
export const modelProcedure = modelBackedProcedure.use(async ({ ctx, next }) => {
  const languages = requireLanguages(ctx.principal);
  return next({ ctx: { ...ctx, languages } });
});
