import type { Em } from '../../db/orm.ts';
import { sql, allRows, run } from '../../db/sql.ts';
import { blockedUntil, LOGIN_RULES, recentFailures, type LoginRule } from '../../domain/login-backoff.ts';
import { hashSecret } from '../../domain/tokens.ts';

/** The failure counts one attempt is checked against (src/domain/login-backoff.ts): hashes, never the email. */
export interface LoginKeys {
  accountFromAddress: string;
  account: string;
}

export function loginKeys(email: string, addressKey: string): LoginKeys {
  const account = email.trim().toLowerCase();
  return { accountFromAddress: hashSecret(`login:${account}:${addressKey}`), account: hashSecret(`login:${account}`) };
}

const rulesOf = (keys: LoginKeys): [string, LoginRule][] =>
  [[keys.accountFromAddress, LOGIN_RULES.accountFromAddress] as [string, LoginRule], [keys.account, LOGIN_RULES.account] as [string, LoginRule]].sort(
    ([a], [b]) => a.localeCompare(b),
  );

/**
 * Claims one password check for an account, in PostgreSQL so that every API process sees the
 * same counts. While the backoff lasts the claim is refused (and the password is not checked at
 * all). An allowed attempt counts as a failure right away, under the rows' locks, so concurrent
 * guesses cannot all slip through before any of them is counted; `forgetLoginFailures` takes the
 * count back when the password was right. Both rows are created or locked by one statement inside
 * the transaction, so housekeeping (which deletes forgotten rows, SKIP LOCKED) cannot take one away
 * between its creation and the read.
 */
export async function claimLoginAttempt(em: Em, keys: LoginKeys): Promise<{ allowed: true } | { allowed: false; retryAfterMs: number }> {
  const rules = rulesOf(keys);
  return em.transactional(async (tx) => {
    // Rows in key order, so that two claims lock them in the same order; DO UPDATE locks an existing row.
    const rows = await allRows<{ key: string; failures: number; last_ms: string; now_ms: string }>(
      tx,
      sql`INSERT INTO login_failures AS f (key, failures, last_failure_at) VALUES ${sql.join(rules.map(([key]) => sql`(${key}, 0, now())`))}
       ON CONFLICT (key) DO UPDATE SET key = f.key
       RETURNING key, failures, (extract(epoch FROM last_failure_at) * 1000)::text AS last_ms, (extract(epoch FROM now()) * 1000)::text AS now_ms`,
    );
    const now = Number(rows[0]!.now_ms);
    const counts = rows.map((row) => ({ key: row.key, failures: row.failures, lastFailureAt: Number(row.last_ms) }));
    const until = Math.max(...counts.map((count) => blockedUntil(count, rules.find(([key]) => key === count.key)![1], now)));
    if (until > now) return { allowed: false as const, retryAfterMs: until - now };
    await run(
      tx,
      sql`UPDATE login_failures AS f SET failures = v.failures, last_failure_at = now()
       FROM (VALUES ${sql.join(counts.map((count) => sql`(${count.key}, ${recentFailures(count, now) + 1}::int)`))}) AS v (key, failures) WHERE f.key = v.key`,
    );
    return { allowed: true as const };
  });
}

/** The password was right: the attempt and the failures before it no longer count. */
export async function forgetLoginFailures(em: Em, keys: LoginKeys): Promise<void> {
  await run(em, sql`DELETE FROM login_failures WHERE key IN (${keys.accountFromAddress}, ${keys.account})`);
}
