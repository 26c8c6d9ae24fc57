import { randomUUID } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { User } from '../db/entities/index.ts';
import type { Em } from '../db/orm.ts';
import { AppError } from '../domain/problems.ts';
import { generateSessionId, hashSecret } from '../domain/tokens.ts';
import { openWallet } from './wallet.ts';

/** Argon2id with OWASP's memory-hard baseline (19 MiB, 2 passes). */
const PASSWORD_HASH_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
export const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;

// A fixed hash to verify against when the email is unknown, so timing does not reveal accounts.
const dummyHash = hash('not-a-real-password', PASSWORD_HASH_OPTIONS);

export interface AccountView {
  userId: string;
  email: string;
  plan: 'free' | 'paid';
  targetLanguage: string | null;
  nativeLanguage: string | null;
}

interface UserRow { id: string; email: string; plan: 'free' | 'paid'; target_language: string | null; native_language: string | null; password_hash: string }

const view = (u: UserRow): AccountView => ({
  userId: u.id,
  email: u.email,
  plan: u.plan,
  targetLanguage: u.target_language,
  nativeLanguage: u.native_language,
});

export async function signUp(em: Em, email: string, password: string): Promise<{ account: AccountView; sessionId: string }> {
  const passwordHash = await hash(password, PASSWORD_HASH_OPTIONS);
  const id = randomUUID();
  return em.transactional(async (tx) => {
    const rows = await tx.execute<UserRow[]>(
      `INSERT INTO users (id, email, password_hash) VALUES (?, ?, ?)
       ON CONFLICT (lower(email)) DO NOTHING
       RETURNING id, email, plan, target_language, native_language, password_hash`,
      [id, email, passwordHash],
    );
    const user = rows[0];
    if (!user) throw new AppError('email_taken', 'An account with this email already exists.');
    await openWallet(tx, user.id, 'free', new Date());
    return { account: view(user), sessionId: await createSession(tx, user.id) };
  });
}

export async function logIn(em: Em, email: string, password: string): Promise<{ account: AccountView; sessionId: string }> {
  const [user] = await em.execute<UserRow[]>(
    `SELECT id, email, plan, target_language, native_language, password_hash FROM users WHERE lower(email) = lower(?)`,
    [email],
  );
  const ok = await verify(user?.password_hash ?? (await dummyHash), password);
  if (!user || !ok) throw new AppError('unauthenticated', 'Email or password is wrong.');
  return { account: view(user), sessionId: await createSession(em, user.id) };
}

async function createSession(em: Em, userId: string): Promise<string> {
  // Sessions expire; signing in sweeps the user's expired ones so the table does not grow forever.
  await em.execute(`DELETE FROM sessions WHERE user_id = ? AND expires_at <= now()`, [userId]);
  const sessionId = generateSessionId();
  await em.execute(`INSERT INTO sessions (id_hash, user_id, expires_at) VALUES (?, ?, ?)`, [
    hashSecret(sessionId),
    userId,
    new Date(Date.now() + SESSION_TTL_MS),
  ]);
  return sessionId;
}

export async function logOut(em: Em, sessionId: string): Promise<void> {
  await em.execute(`DELETE FROM sessions WHERE id_hash = ?`, [hashSecret(sessionId)]);
}

/** The signed-in user of a live session, with the account's languages (for the 428 guard). */
export async function sessionUser(em: Em, sessionId: string): Promise<{ userId: string; targetLanguage: string | null; nativeLanguage: string | null } | null> {
  const [row] = await em.execute<{ user_id: string; target_language: string | null; native_language: string | null }[]>(
    `SELECT s.user_id, u.target_language, u.native_language FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.id_hash = ? AND s.expires_at > now()`,
    [hashSecret(sessionId)],
  );
  return row ? { userId: row.user_id, targetLanguage: row.target_language, nativeLanguage: row.native_language } : null;
}

export async function getAccount(em: Em, userId: string): Promise<AccountView> {
  const user = await em.findOne(User, { id: userId });
  if (!user) throw new AppError('unauthenticated', 'The account no longer exists.');
  return { userId: user.id, email: user.email, plan: user.plan, targetLanguage: user.targetLanguage ?? null, nativeLanguage: user.nativeLanguage ?? null };
}

export async function setLanguages(em: Em, userId: string, targetLanguage: string, nativeLanguage: string): Promise<AccountView> {
  const user = await em.findOneOrFail(User, { id: userId });
  em.assign(user, { targetLanguage, nativeLanguage });
  await em.flush();
  return getAccount(em, userId);
}

export async function findUserIdByEmail(em: Em, email: string): Promise<string | null> {
  const [row] = await em.execute<{ id: string }[]>(`SELECT id FROM users WHERE lower(email) = lower(?)`, [email]);
  return row?.id ?? null;
}
