import type { Config } from '../../config.ts';
import type { Em } from '../../db/orm.ts';
import { sql, firstRow, run } from '../../db/sql.ts';
import { AppError } from '../../domain/problems.ts';

/**
 * Each user may start a bounded number of audio generations per sliding window, whatever the
 * engine: the local engine is free, so credits alone would let an empty account fill storage.
 * Clips that exist already (ready, or being generated for someone) are not counted.
 */

/** Namespace of the per-user advisory lock that serialises a user's audio requests. */
const AUDIO_QUOTA_LOCK = 745011;

/**
 * Serialises the user's audio requests for the rest of the transaction. Taken first, before any
 * clip row is locked, so that two of the user's requests can never wait on each other in a cycle.
 */
export async function lockAudioQuota(tx: Em, userId: string): Promise<void> {
  await run(tx, sql`SELECT pg_advisory_xact_lock(${AUDIO_QUOTA_LOCK}::int, hashtext(${userId}))`);
}

/**
 * Records one generation started by the user, or refuses it (429 `audio_quota_exceeded`, with
 * Retry-After until the oldest start in the window leaves it). Needs lockAudioQuota first.
 * Starts older than the window are dropped on the way, so a user never has more rows than the quota.
 */
export async function consumeAudioGeneration(tx: Em, userId: string, quota: Config['audioQuota']): Promise<void> {
  const window = `${quota.windowHours} hours`;
  const usage = await firstRow<{ used: number; retry_after: number | null }>(
    tx,
    sql`WITH expired AS (DELETE FROM audio_generation_starts WHERE user_id = ${userId} AND started_at <= now() - ${window}::interval)
     SELECT count(*)::int AS used, ceil(extract(epoch FROM min(started_at) + ${window}::interval - now()))::int AS retry_after
     FROM audio_generation_starts WHERE user_id = ${userId} AND started_at > now() - ${window}::interval`,
  );
  if (usage!.used >= quota.clips) {
    const retryAfterSeconds = Math.max(1, usage!.retry_after ?? 1);
    throw new AppError(
      'audio_quota_exceeded',
      `You have started ${quota.clips} new audio clips in the last ${quota.windowHours} hours, the most allowed; audio already generated stays available. ` +
        `Retry in ${retryAfterSeconds} s.`,
      {},
      { retryAfterSeconds },
    );
  }
  await run(tx, sql`INSERT INTO audio_generation_starts (user_id) VALUES (${userId})`);
}
