import { randomUUID } from 'node:crypto';
import { hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';
import pLimit from 'p-limit';
import type { Em } from '../../db/orm.ts';
import { sql, affectedRows, allRows, firstRow, preparedStatement, run } from '../../db/sql.ts';
import { AppError, rateLimited } from '../../domain/problems.ts';
import { generateSessionId, hashSecret } from '../../domain/tokens.ts';
import type { FeatureContext } from '../context.ts';
import { openWallet } from '../credits/wallet.ts';
import { announceRevocation } from '../status/changes.ts';
import { claimLoginAttempt, forgetLoginFailures, loginKeys } from './login-throttle.ts';
import type { Account, SessionsEnded } from './schemas.ts';

/** Argon2id with OWASP's memory-hard baseline (19 MiB, 2 passes). */
const PASSWORD_HASH_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
export const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;

/**
 * Password hashes in flight at once, per process. Each takes 19 MiB outside the JS heap on a
 * thread of libuv's pool (4 threads, shared with DNS and file I/O): a burst of sign-ups or logins
 * took the API's resident memory from 230 to 300+ MB and every pool thread. One at a time: a hash
 * takes about 14 ms of a core, so a process still hashes some 70 a second (90 with all its pool
 * threads, on two cores that its requests share), and each one in flight beyond the first was
 * 19 MB of the API's peak (`npm run bench page-translation`, whose workload signs up six learners:
 * 257–269 MB with two at a time, 233–246 with one). The rest wait their turn (login attempts are
 * rate-limited before they get here).
 */
const passwordWork = pLimit(1);
const hash = (password: string, options: typeof PASSWORD_HASH_OPTIONS) => passwordWork(() => argon2Hash(password, options));
const verify = (hashed: string, password: string) => passwordWork(() => argon2Verify(hashed, password));

// A fixed hash to verify against when the email is unknown, so timing does not reveal accounts.
const dummyHash = hash('not-a-real-password', PASSWORD_HASH_OPTIONS);

interface UserRow {
  id: string;
  email: string;
  plan: 'free' | 'paid';
  target_language: string | null;
  native_language: string | null;
}
const ACCOUNT_COLUMNS = sql`id, email, plan, target_language, native_language`;

const view = (u: UserRow): Account => ({
  userId: u.id,
  email: u.email,
  plan: u.plan,
  targetLanguage: u.target_language,
  nativeLanguage: u.native_language,
});

export async function signUp(ctx: FeatureContext, email: string, password: string): Promise<{ account: Account; sessionId: string }> {
  const passwordHash = await hash(password, PASSWORD_HASH_OPTIONS);
  const id = randomUUID();
  return ctx.em.transactional(async (tx) => {
    const rows = await allRows<UserRow>(
      tx,
      sql`INSERT INTO users (id, email, password_hash) VALUES (${id}, ${email}, ${passwordHash})
       ON CONFLICT (lower(email)) DO NOTHING
       RETURNING ${ACCOUNT_COLUMNS}`,
    );
    const user = rows[0];
    if (!user) throw new AppError('email_taken', 'An account with this email already exists.');
    await openWallet(tx, user.id, 'free', new Date());
    return { account: view(user), sessionId: await createSession(tx, user.id) };
  });
}

export interface LoginContext {
  /** The client's address as the limiter keys it (src/domain/client-address.ts). */
  addressKey: string;
  /** A session id the client presented at login: ended, never carried over (no fixation). */
  presentedSessionId?: string | undefined;
}

/**
 * Signs in with a fresh session id. Wrong passwords back off per account (src/domain/login-backoff.ts):
 * while blocked, 429 with Retry-After and no password check at all.
 */
export async function logIn(ctx: FeatureContext, email: string, password: string, context: LoginContext): Promise<{ account: Account; sessionId: string }> {
  const { em } = ctx;
  const user = await checkPassword(em, email, password, context.addressKey, () => new AppError('unauthenticated', 'Email or password is wrong.'));
  if (context.presentedSessionId) await endSession(em, context.presentedSessionId);
  return { account: view(user), sessionId: await createSession(em, user.id) };
}

/** A password check counted against the account's backoff; `wrong` is what a failed check throws. */
async function checkPassword(em: Em, email: string, password: string, addressKey: string, wrong: () => AppError): Promise<UserRow> {
  const keys = loginKeys(email, addressKey);
  const claim = await claimLoginAttempt(em, keys);
  if (!claim.allowed) throw rateLimited('login', claim.retryAfterMs);
  const user = await firstRow<UserRow & { password_hash: string }>(
    em,
    sql`SELECT ${ACCOUNT_COLUMNS}, password_hash FROM users WHERE lower(email) = lower(${email})`,
  );
  const ok = await verify(user?.password_hash ?? (await dummyHash), password);
  if (!user || !ok) throw wrong();
  await forgetLoginFailures(em, keys);
  return user;
}

async function createSession(em: Em, userId: string): Promise<string> {
  // Sessions expire; signing in sweeps the user's expired ones so the table does not grow forever.
  await run(em, sql`DELETE FROM sessions WHERE user_id = ${userId} AND expires_at <= now()`);
  const sessionId = generateSessionId();
  await run(
    em,
    sql`INSERT INTO sessions (id_hash, user_id, expires_at) VALUES (${hashSecret(sessionId)}, ${userId},
    ${new Date(Date.now() + SESSION_TTL_MS)})`,
  );
  return sessionId;
}

export async function logOut(ctx: FeatureContext, sessionId: string): Promise<void> {
  await endSession(ctx.em, sessionId);
}

/** Ends the session, and its live status streams in every API process. */
async function endSession(em: Em, sessionId: string): Promise<void> {
  const sessionHash = hashSecret(sessionId);
  await em.transactional(async (tx) => {
    const ended = await firstRow<{ user_id: string }>(tx, sql`DELETE FROM sessions WHERE id_hash = ${sessionHash} RETURNING user_id`);
    if (ended) await announceRevocation(tx, { userId: ended.user_id, sessionHash });
  });
}

/**
 * Signs the user out everywhere: every page session ends, this one included. Personal tokens
 * stay valid unless `revokeTokens` — they are the user's CLI and extension credentials, listed
 * and revocable one by one; revoking them is for a suspected leak.
 */
export async function endAllSessions(ctx: FeatureContext, userId: string, options: { revokeTokens: boolean }): Promise<SessionsEnded> {
  return ctx.em.transactional((tx) => endEverySession(tx, userId, options));
}

/** endAllSessions inside the caller's transaction. */
async function endEverySession(tx: Em, userId: string, { revokeTokens }: { revokeTokens: boolean }): Promise<SessionsEnded> {
  const ended = {
    sessionsEnded: await affectedRows(tx, sql`DELETE FROM sessions WHERE user_id = ${userId}`),
    tokensRevoked: revokeTokens ? await revokeAllTokens(tx, userId) : 0,
  };
  await announceRevocation(tx, { userId, allSessions: true, allTokens: revokeTokens });
  return ended;
}

async function revokeAllTokens(em: Em, userId: string): Promise<number> {
  return affectedRows(em, sql`UPDATE api_tokens SET revoked_at = now() WHERE user_id = ${userId} AND revoked_at IS NULL`);
}

/**
 * Changes the password of a signed-in user. The current password is checked like a login (same
 * backoff); every session ends and the caller gets a fresh one, so whoever else held a session —
 * or this session's id — is out. Tokens as in `endAllSessions`.
 */
export async function changePassword(
  ctx: FeatureContext,
  userId: string,
  input: { currentPassword: string; newPassword: string; revokeTokens: boolean; addressKey: string },
): Promise<SessionsEnded & { sessionId: string }> {
  const { em } = ctx;
  const owner = await firstRow<{ email: string }>(em, sql`SELECT email FROM users WHERE id = ${userId}`);
  if (!owner) throw new AppError('unauthenticated', 'The account no longer exists.');
  await checkPassword(em, owner.email, input.currentPassword, input.addressKey, () => new AppError('wrong_password', 'The current password is wrong.'));
  const passwordHash = await hash(input.newPassword, PASSWORD_HASH_OPTIONS);
  return em.transactional(async (tx) => {
    await run(tx, sql`UPDATE users SET password_hash = ${passwordHash} WHERE id = ${userId}`);
    const ended = await endEverySession(tx, userId, { revokeTokens: input.revokeTokens });
    return { ...ended, sessionId: await createSession(tx, userId) };
  });
}

/** Prepared (src/db/sql.ts): every request with a session cookie runs it. */
const sessionLookup = preparedStatement(
  'session_lookup',
  (idHash: string) =>
    sql<{ user_id: string; target_language: string | null; native_language: string | null }>`
     SELECT s.user_id, u.target_language, u.native_language FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.id_hash = ${idHash} AND s.expires_at > now()`,
);

/** The signed-in user of a live session, with the account's languages (for the 428 guard). */
export async function sessionUser(em: Em, sessionId: string): Promise<{ userId: string; targetLanguage: string | null; nativeLanguage: string | null } | null> {
  const row = await firstRow(em, sessionLookup(hashSecret(sessionId)));
  return row ? { userId: row.user_id, targetLanguage: row.target_language, nativeLanguage: row.native_language } : null;
}

export async function getAccount(ctx: FeatureContext, userId: string): Promise<Account> {
  const user = await firstRow<UserRow>(ctx.em, sql`SELECT ${ACCOUNT_COLUMNS} FROM users WHERE id = ${userId}`);
  if (!user) throw new AppError('unauthenticated', 'The account no longer exists.');
  return view(user);
}

export async function setLanguages(ctx: FeatureContext, userId: string, targetLanguage: string, nativeLanguage: string): Promise<Account> {
  const user = await firstRow<UserRow>(
    ctx.em,
    sql`UPDATE users SET target_language = ${targetLanguage}, native_language = ${nativeLanguage} WHERE id = ${userId} RETURNING ${ACCOUNT_COLUMNS}`,
  );
  if (!user) throw new AppError('unauthenticated', 'The account no longer exists.');
  return view(user);
}

export async function findUserIdByEmail(ctx: FeatureContext, email: string): Promise<string | null> {
  const row = await firstRow<{ id: string }>(ctx.em, sql`SELECT id FROM users WHERE lower(email) = lower(${email})`);
  return row?.id ?? null;
}

/**
 * Which of these credentials still work (a session by its id's hash, a token by id), in order: for
 * the status hub, which checks its open streams so when it may have missed a revocation notice.
 */
export async function liveCredentials(em: Em, credentials: { sessionHash: string | null; tokenId: string | null }[]): Promise<boolean[]> {
  const sessionHashes = credentials.flatMap((c) => (c.sessionHash === null ? [] : [c.sessionHash]));
  const tokenIds = credentials.flatMap((c) => (c.tokenId === null ? [] : [c.tokenId]));
  const live = await allRows<{ key: string }>(
    em,
    sql`SELECT id_hash AS key FROM sessions WHERE id_hash = ANY(${sessionHashes}::text[]) AND expires_at > now()
     UNION ALL
     SELECT id::text FROM api_tokens WHERE id = ANY(${tokenIds}::uuid[]) AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
  );
  const keys = new Set(live.map((row) => row.key));
  return credentials.map((c) => keys.has(c.sessionHash ?? c.tokenId ?? ''));
}
