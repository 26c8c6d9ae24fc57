import type { Em } from '../db/orm.ts';
import { firstRow, preparedStatement, run, sql } from '../db/sql.ts';
import { describeBucket, emissionMs, takeFromBucket, type Quota, type RateLimitDecision } from '../domain/rate-limit.ts';

/** Prepared (src/db/sql.ts): every API request runs it. */
const bucketHit = preparedStatement('rate_limit_hit', (bucket: string, emission: number, periodMs: number) => {
  const next = sql`GREATEST(b.tat, now()) + ${emission} * interval '1 millisecond'`;
  const fits = sql`${next} <= now() + ${periodMs} * interval '1 millisecond'`;
  return sql<{ allowed: boolean; tat_ms: string; now_ms: string }>`
     INSERT INTO rate_limit_buckets AS b (bucket, tat, allowed) VALUES (${bucket}, now() + ${emission} * interval '1 millisecond', true)
     ON CONFLICT (bucket) DO UPDATE SET allowed = ${fits}, tat = CASE WHEN ${fits} THEN ${next} ELSE b.tat END
     RETURNING allowed, (extract(epoch FROM tat) * 1000)::text AS tat_ms, (extract(epoch FROM now()) * 1000)::text AS now_ms`;
});

/**
 * A GCRA bucket in PostgreSQL (src/domain/rate-limit.ts, in SQL), so every API process shares one
 * count per user: one UPSERT per request, which takes the row lock, so concurrent requests are
 * counted exactly. A refused request leaves the TAT as it was. Rows whose TAT has passed are full
 * buckets, the same as no row: housekeeping deletes them (src/services/retention.ts).
 */
export async function hitBucket(em: Em, bucket: string, quota: Quota): Promise<RateLimitDecision> {
  const row = await firstRow(em, bucketHit(bucket, emissionMs(quota), quota.periodMs));
  return describeBucket(Number(row!.tat_ms), Number(row!.now_ms), row!.allowed, quota);
}

/** A learner's bucket of a kind (`model`, `api`, `export`): the key its row is stored under. */
export const userBucket = (kind: string, userId: string) => `${kind}:${userId}`;

/** A bucket's TAT (null: full, no row) and the database's now, in epoch ms; read without a lock. */
export async function readBucket(em: Em, bucket: string): Promise<{ tatMs: number | null; nowMs: number }> {
  const row = (await firstRow<{ tat_ms: string | null; now_ms: string }>(
    em,
    sql`SELECT (extract(epoch FROM b.tat) * 1000)::text AS tat_ms, (extract(epoch FROM now()) * 1000)::text AS now_ms
     FROM (SELECT now() AS now) n LEFT JOIN rate_limit_buckets b ON b.bucket = ${bucket}`,
  ))!;
  return { tatMs: row.tat_ms ? Number(row.tat_ms) : null, nowMs: Number(row.now_ms) };
}

/**
 * Takes `count` from a bucket unconditionally, on top of whatever was taken since it was read:
 * for a caller that decided from readBucket what it may take (an import's pacing step).
 */
export async function spendFromBucket(em: Em, bucket: string, quota: Quota, count: number): Promise<void> {
  const ms = count * emissionMs(quota);
  await run(
    em,
    sql`INSERT INTO rate_limit_buckets AS b (bucket, tat, allowed) VALUES (${bucket}, now() + ${ms} * interval '1 millisecond', true)
     ON CONFLICT (bucket) DO UPDATE SET tat = greatest(b.tat, now()) + ${ms} * interval '1 millisecond', allowed = true`,
  );
}

/**
 * GCRA buckets in this process's memory: no I/O, for the per-address limit that runs before any
 * credential is looked up. At most `maxKeys` buckets are kept; past that, full ones go first,
 * then the least recently used (a forgotten bucket starts full again).
 */
export class MemoryBuckets {
  private readonly tats = new Map<string, number>();

  private readonly maxKeys: number;

  constructor(maxKeys: number) {
    this.maxKeys = maxKeys;
  }

  hit(key: string, quota: Quota, now = Date.now()): RateLimitDecision {
    const step = takeFromBucket(this.tats.get(key) ?? null, now, quota);
    // Delete before set: a Map iterates in insertion order, so this keeps it least recently used first.
    this.tats.delete(key);
    this.tats.set(key, step.tat);
    if (this.tats.size > this.maxKeys) this.evict(now);
    return describeBucket(step.tat, now, step.allowed, quota);
  }

  get size() {
    return this.tats.size;
  }

  private evict(now: number) {
    for (const [key, tat] of this.tats) if (tat <= now) this.tats.delete(key);
    for (const key of this.tats.keys()) {
      if (this.tats.size <= this.maxKeys * 0.9) break;
      this.tats.delete(key);
    }
  }
}
