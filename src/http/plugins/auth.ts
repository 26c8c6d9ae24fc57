import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import type { Orm } from '../../db/orm.ts';
import { isAllowedOrigin } from '../../domain/origins.ts';
import { AppError } from '../../domain/problems.ts';
import { parseBearer } from '../../domain/tokens.ts';
import { sessionUser } from '../../features/account/service.ts';
import type { TokenScope } from '../../features/account/schemas.ts';
import { authenticateToken } from '../../features/account/tokens.ts';
import { admit, type AuthLevel } from '../operation.ts';
import { readSessionCookie } from '../../features/account/session-cookie.ts';

export interface Principal {
  userId: string;
  via: 'session' | 'token';
  scope: TokenScope;
  sessionId: string | null;
  tokenId: string | null;
  /** The account's languages as of this request (null until set). */
  targetLanguage: string | null;
  nativeLanguage: string | null;
}

/**
 * Who may call a route: an operation's level (src/http/operation.ts), or `optional` for /trpc,
 * where the principal is resolved when present and each procedure applies its own level.
 */
type AuthMode = AuthLevel | 'optional';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthMode;
    /** Model-backed: counted in the tighter rate-limit bucket (tRPC: per procedure). */
    modelBacked?: boolean | ((request: FastifyRequest) => boolean);
    /** Counted in a bucket of its own instead of the general one (the library export). */
    bucket?: 'export';
    /** Answers 428 until both languages are set. */
    requiresLanguages?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

async function resolvePrincipal(orm: Orm, config: Config, request: FastifyRequest): Promise<Principal | null> {
  const em = orm.em.fork();
  const authorization = request.headers.authorization;
  if (authorization !== undefined) {
    const token = parseBearer(authorization);
    const found = token ? await authenticateToken(em, token) : null;
    if (!found) throw new AppError('unauthenticated', 'The bearer token is malformed, unknown, expired or revoked.');
    const { userId, scope, tokenId, targetLanguage, nativeLanguage } = found;
    return { userId, via: 'token', scope, tokenId, sessionId: null, targetLanguage, nativeLanguage };
  }
  const sessionId = readSessionCookie(config, request);
  if (sessionId) {
    const user = await sessionUser(em, sessionId);
    if (user) return { ...user, via: 'session', scope: 'write', sessionId, tokenId: null };
  }
  return null;
}

export const authPlugin = fp(
  async (app: FastifyInstance, { orm, config }: { orm: Orm; config: Config }) => {
    app.decorateRequest('principal', null);
    const allowedOrigin = (origin: string) => isAllowedOrigin(config.allowedOrigins, origin);
    // The OpenAPI document's global security applies to every operation; public ones opt out.
    app.addHook('onRoute', (route) => {
      if (route.config?.auth === 'public') route.schema = { ...route.schema, security: [] };
    });

    app.addHook('onRequest', async (request) => {
      const mode = request.routeOptions.config.auth ?? 'read';
      const unsafe = !SAFE_METHODS.has(request.method);
      // Browsers send Origin on cross-site writes; a write from a foreign page is refused even
      // before authentication so that login CSRF is refused too.
      const origin = request.headers.origin;
      if (unsafe && origin !== undefined && !allowedOrigin(origin) && request.headers.authorization === undefined) {
        throw new AppError('origin_not_allowed', `Writes from origin ${origin} are not accepted.`);
      }
      // Unknown routes answer 404/405 whoever asks: there is nothing to protect.
      if (mode === 'public' || request.is404) return;
      request.principal = await resolvePrincipal(orm, config, request);
      const principal = request.principal;
      if (principal?.via === 'session' && unsafe && (origin === undefined || !allowedOrigin(origin))) {
        throw new AppError('origin_not_allowed', 'Cookie-authenticated writes must come from the service’s own pages (Origin header).');
      }
      // By method, for REST and tRPC alike (mutations are POSTs): a read token never reaches a write.
      if (principal?.via === 'token' && principal.scope === 'read' && unsafe) {
        throw new AppError('read_only_token', 'This token has the read scope; it may only call GET routes.');
      }
      admit(mode, principal);
    });
  },
  { name: 'auth', dependencies: ['@fastify/cookie'] },
);
