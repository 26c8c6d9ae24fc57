import type { Orm } from '../db/orm.ts';

/**
 * Fixed-window counters in PostgreSQL, so every API process shares one count per principal.
 * One UPSERT per request; old windows are swept now and then by whoever passes by.
 */
export async function hitWindow(orm: Orm, bucket: string, windowMs: number): Promise<{ current: number; ttl: number }> {
  const now = Date.now();
  const windowStart = Math.floor(now / windowMs) * windowMs;
  const em = orm.em.fork();
  const [row] = await em.execute<{ hits: number }[]>(
    `INSERT INTO rate_limit_windows (bucket, window_start, hits) VALUES (?, to_timestamp(? / 1000.0), 1)
     ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_windows.hits + 1
     RETURNING hits`,
    [bucket, windowStart],
  );
  if (Math.random() < 0.001) {
    await em.execute(`DELETE FROM rate_limit_windows WHERE window_start < now() - interval '1 day'`);
  }
  return { current: row!.hits, ttl: windowStart + windowMs - now };
}

/** The store interface @fastify/rate-limit expects, over `hitWindow`. */
export function postgresRateLimitStore(orm: Orm) {
  return class PostgresStore {
    incr(key: string, callback: (err: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number) {
      hitWindow(orm, key, timeWindow).then((r) => callback(null, r), (err: Error) => callback(err));
    }
    child() {
      return new PostgresStore();
    }
  };
}
