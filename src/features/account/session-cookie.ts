import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { SESSION_TTL_MS } from './service.ts';

/**
 * The page session cookie. On https it is `__Host-lcs_session`: browsers accept a cookie of that
 * name only with Secure, Path=/ and no Domain, so neither a sibling subdomain nor a plain-http
 * page can plant or overwrite it. HttpOnly, SameSite=Lax.
 */
export function sessionCookieName(config: Pick<Config, 'secureCookies'>): string {
  return config.secureCookies ? '__Host-lcs_session' : 'lcs_session';
}

export function readSessionCookie(config: Config, request: FastifyRequest): string | undefined {
  return request.cookies[sessionCookieName(config)];
}

export function setSessionCookie(config: Config, reply: FastifyReply, sessionId: string) {
  reply.setCookie(sessionCookieName(config), sessionId, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.secureCookies,
    maxAge: SESSION_TTL_MS / 1000,
  });
}

export function clearSessionCookie(config: Config, reply: FastifyReply) {
  reply.clearCookie(sessionCookieName(config), { path: '/', httpOnly: true, sameSite: 'lax', secure: config.secureCookies });
}
