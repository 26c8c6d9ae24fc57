import { randomUUID } from 'node:crypto';
import type { InferEntity } from '@mikro-orm/core';
import { ApiToken } from '../../db/entities/index.ts';
import type { Em } from '../../db/orm.ts';
import { AppError } from '../../domain/problems.ts';
import { generateToken, hashSecret, tokenLooksValid } from '../../domain/tokens.ts';

export type TokenScope = 'read' | 'write';

export interface TokenView {
  id: string;
  name: string;
  scope: TokenScope;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

type TokenEntity = InferEntity<typeof ApiToken>;

const view = (t: TokenEntity): TokenView => ({
  id: t.id,
  name: t.name,
  scope: t.scope,
  createdAt: t.createdAt.toISOString(),
  expiresAt: t.expiresAt?.toISOString() ?? null,
  lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
  revokedAt: t.revokedAt?.toISOString() ?? null,
});

export async function createToken(em: Em, userId: string, input: { name: string; scope: TokenScope; expiresInDays?: number | undefined }) {
  const token = generateToken();
  const now = new Date();
  const entity = em.create(ApiToken, {
    id: randomUUID(),
    userId,
    name: input.name,
    scope: input.scope,
    tokenHash: hashSecret(token),
    createdAt: now,
    expiresAt: input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * 86_400_000) : null,
    revokedAt: null,
    lastUsedAt: null,
  });
  await em.flush();
  return { ...view(entity), token };
}

export async function listTokens(em: Em, userId: string): Promise<TokenView[]> {
  const tokens = await em.find(ApiToken, { userId }, { orderBy: { createdAt: 'desc' } });
  return tokens.map(view);
}

export async function revokeToken(em: Em, userId: string, tokenId: string): Promise<void> {
  const affected = await em.nativeUpdate(ApiToken, { id: tokenId, userId, revokedAt: null }, { revokedAt: new Date() });
  if (affected === 0) {
    const exists = await em.count(ApiToken, { id: tokenId, userId });
    if (!exists) throw new AppError('not_found', 'No such token.');
  }
}

export interface TokenPrincipal { userId: string; tokenId: string; scope: TokenScope; targetLanguage: string | null; nativeLanguage: string | null }

/**
 * Resolves a bearer token. Format and checksum are checked before touching the database, so
 * garbage costs nothing. `lastUsedAt` is written at most once a minute per token to keep
 * authenticated reads free of a write on every request.
 */
export async function authenticateToken(em: Em, token: string): Promise<TokenPrincipal | null> {
  if (!tokenLooksValid(token)) return null;
  // The account's languages come along: the 428 guard needs them, and this saves it a query.
  const [row] = await em.execute<{ id: string; user_id: string; scope: TokenScope; last_used_at: Date | null; target_language: string | null; native_language: string | null }[]>(
    `SELECT t.id, t.user_id, t.scope, t.last_used_at, u.target_language, u.native_language
     FROM api_tokens t JOIN users u ON u.id = t.user_id
     WHERE t.token_hash = ? AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())`,
    [hashSecret(token)],
  );
  if (!row) return null;
  if (!row.last_used_at || Date.now() - new Date(row.last_used_at).getTime() > 60_000) {
    await em.execute(`UPDATE api_tokens SET last_used_at = now() WHERE id = ?`, [row.id]);
  }
  return { userId: row.user_id, tokenId: row.id, scope: row.scope, targetLanguage: row.target_language, nativeLanguage: row.native_language };
}
