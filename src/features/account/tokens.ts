import { randomUUID } from 'node:crypto';
import type { Em } from '../../db/orm.ts';
import { sql, allRows, firstRow, preparedStatement, run } from '../../db/sql.ts';
import { AppError } from '../../domain/problems.ts';
import { generateToken, hashSecret, tokenLooksValid } from '../../domain/tokens.ts';
import type { FeatureContext } from '../context.ts';
import { announceRevocation } from '../status/changes.ts';
import type { TokenScope, TokenView } from './schemas.ts';

interface TokenRow {
  id: string;
  name: string;
  scope: TokenScope;
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
}
const TOKEN_COLUMNS = sql`id, name, scope, created_at, expires_at, last_used_at, revoked_at`;
const iso = (date: Date | null) => (date ? new Date(date).toISOString() : null);

const view = (t: TokenRow): TokenView => ({
  id: t.id,
  name: t.name,
  scope: t.scope,
  createdAt: iso(t.created_at)!,
  expiresAt: iso(t.expires_at),
  lastUsedAt: iso(t.last_used_at),
  revokedAt: iso(t.revoked_at),
});

export async function createToken(ctx: FeatureContext, userId: string, input: { name: string; scope: TokenScope; expiresInDays?: number | undefined }) {
  const token = generateToken();
  const now = new Date();
  const expiresAt = input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * 86_400_000) : null;
  const created = await firstRow<TokenRow>(
    ctx.em,
    sql`INSERT INTO api_tokens (id, user_id, name, scope, token_hash, created_at, expires_at)
     VALUES (${randomUUID()}, ${userId}, ${input.name}, ${input.scope}, ${hashSecret(token)}, ${now}, ${expiresAt})
     RETURNING ${TOKEN_COLUMNS}`,
  );
  return { ...view(created!), token };
}

export async function listTokens(ctx: FeatureContext, userId: string): Promise<TokenView[]> {
  const tokens = await allRows<TokenRow>(ctx.em, sql`SELECT ${TOKEN_COLUMNS} FROM api_tokens WHERE user_id = ${userId} ORDER BY created_at DESC`);
  return tokens.map(view);
}

/** Revoking a revoked token again is fine (204); an unknown or another user's token is a 404. */
export async function revokeToken(ctx: FeatureContext, userId: string, tokenId: string): Promise<void> {
  await ctx.em.transactional(async (tx) => {
    const token = await firstRow<{ id: string }>(
      tx,
      sql`UPDATE api_tokens SET revoked_at = coalesce(revoked_at, now()) WHERE id = ${tokenId} AND user_id = ${userId} RETURNING id`,
    );
    if (!token) throw new AppError('not_found', 'No such token.');
    // Its live status streams end too, in every API process.
    await announceRevocation(tx, { userId, tokenId });
  });
}

export interface TokenPrincipal {
  userId: string;
  tokenId: string;
  scope: TokenScope;
  targetLanguage: string | null;
  nativeLanguage: string | null;
}

/** Prepared (src/db/sql.ts): every request with a bearer token runs it. */
const tokenLookup = preparedStatement(
  'token_lookup',
  (tokenHash: string) =>
    sql<{ id: string; user_id: string; scope: TokenScope; last_used_at: Date | null; target_language: string | null; native_language: string | null }>`
     SELECT t.id, t.user_id, t.scope, t.last_used_at, u.target_language, u.native_language
     FROM api_tokens t JOIN users u ON u.id = t.user_id
     WHERE t.token_hash = ${tokenHash} AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())`,
);

/**
 * Resolves a bearer token. Format and checksum are checked before touching the database, so
 * garbage costs nothing. `lastUsedAt` is written at most once a minute per token to keep
 * authenticated reads free of a write on every request.
 */
export async function authenticateToken(em: Em, token: string): Promise<TokenPrincipal | null> {
  if (!tokenLooksValid(token)) return null;
  // The account's languages come along: the 428 guard needs them, and this saves it a query.
  const row = await firstRow(em, tokenLookup(hashSecret(token)));
  if (!row) return null;
  if (!row.last_used_at || Date.now() - new Date(row.last_used_at).getTime() > 60_000) {
    await run(em, sql`UPDATE api_tokens SET last_used_at = now() WHERE id = ${row.id}`);
  }
  return { userId: row.user_id, tokenId: row.id, scope: row.scope, targetLanguage: row.target_language, nativeLanguage: row.native_language };
}
