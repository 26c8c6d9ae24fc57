import { randomUUID } from 'node:crypto';
import type { Orm } from '../../../src/db/orm.ts';
import type { RetentionTable } from '../../../src/domain/retention.ts';
import { insertSentence, uniqueText } from '../audio/support.ts';

/**
 * Rows for every retained table, written straight into the shared database with their ages set
 * by SQL: `old` ones are past their bound, `kept` ones are not (or are never deleted, such as an
 * undispatched outbox row). Each row is named by the value that identifies it in its table.
 */
export type Seeded = Record<RetentionTable, { old: string[]; kept: string[] }>;

/** Each row's identifying column: what `remaining` looks for. */
const IDENTITY: Record<RetentionTable, string> = {
  sessions: 'id_hash',
  rate_limit_buckets: 'bucket',
  login_failures: 'key',
  workflow_outbox: 'workflow_id',
  page_translation_requests: 'request_id',
  work_drafts: 'idempotency_key',
  translation_cache: 'cache_key',
  audio_clips: 'id::text',
  card_encounters: 'page_view_id::text',
};

const ids = (n: number, prefix: string) => Array.from({ length: n }, () => `${prefix}-${randomUUID()}`);

export async function seedRetentionRows(orm: Orm, userId: string, perTable = 3): Promise<Seeded> {
  const em = orm.em.fork();
  const run = (sql: string, params: unknown[]) => em.execute(sql, params);
  const seeded = {} as Seeded;

  const sessions = { old: ids(perTable, 'hk-session'), kept: ids(2, 'hk-session') };
  for (const id of sessions.old) await run(`INSERT INTO sessions (id_hash, user_id, expires_at) VALUES (?, ?, now() - interval '1 minute')`, [id, userId]);
  for (const id of sessions.kept) await run(`INSERT INTO sessions (id_hash, user_id, expires_at) VALUES (?, ?, now() + interval '1 day')`, [id, userId]);
  seeded.sessions = sessions;

  // A bucket is full (and may go) once its theoretical arrival time has passed.
  const buckets = { old: ids(perTable, 'hk-bucket'), kept: ids(2, 'hk-bucket') };
  for (const b of buckets.old) await run(`INSERT INTO rate_limit_buckets (bucket, tat, allowed) VALUES (?, now() - interval '1 second', true)`, [b]);
  for (const b of buckets.kept) await run(`INSERT INTO rate_limit_buckets (bucket, tat, allowed) VALUES (?, now() + interval '10 minutes', true)`, [b]);
  seeded.rate_limit_buckets = buckets;

  // Failures count for an hour after the last one.
  const failures = { old: ids(perTable, 'hk-login'), kept: ids(2, 'hk-login') };
  for (const k of failures.old) await run(`INSERT INTO login_failures (key, failures, last_failure_at) VALUES (?, 9, now() - interval '61 minutes')`, [k]);
  for (const k of failures.kept) await run(`INSERT INTO login_failures (key, failures, last_failure_at) VALUES (?, 9, now() - interval '55 minutes')`, [k]);
  seeded.login_failures = failures;

  const outbox = { old: ids(perTable, 'hk-outbox'), kept: ids(1, 'hk-outbox') };
  const outboxRow = `INSERT INTO workflow_outbox (workflow_type, workflow_id, task_queue, args, user_id, kind, created_at, dispatched_at)
                     VALUES ('housekeepingTest', ?, 'none', '[]', ?, 'audio', now() - interval '60 days', `;
  for (const id of outbox.old) await run(outboxRow + `now() - interval '8 days')`, [id, userId]);
  for (const id of outbox.kept) await run(outboxRow + `now() - interval '6 days')`, [id, userId]);
  // Undispatched and old. Its empty workflow id makes every start fail, so no test file's outbox
  // relay can dispatch it: it stays undispatched for as long as it exists.
  await run(
    `INSERT INTO workflow_outbox (workflow_type, workflow_id, task_queue, args, user_id, kind, created_at)
     VALUES ('housekeepingTest', '', 'none', '[]', ?, 'audio', now() - interval '60 days')`,
    [userId],
  );
  seeded.workflow_outbox = outbox;

  const requests = { old: ids(perTable, 'hk-req'), kept: ids(2, 'hk-req') };
  const requestRow = `INSERT INTO page_translation_requests (user_id, request_id, body_hash, status, claim_token, claimed_at, response, credits_charged,
                                                               completed_at)
                      VALUES (?, ?, 'h', 'done', ?, now() - interval '3 days', '{}', 0, `;
  for (const id of requests.old.slice(1)) await run(requestRow + `now() - interval '25 hours')`, [userId, id, randomUUID()]);
  // A claim abandoned days ago by a process that died.
  await run(
    `INSERT INTO page_translation_requests (user_id, request_id, body_hash, status, claim_token, claimed_at)
     VALUES (?, ?, 'h', 'running', ?, now() - interval '2 days')`,
    [userId, requests.old[0], randomUUID()],
  );
  for (const id of requests.kept) await run(requestRow + `now() - interval '23 hours')`, [userId, id, randomUUID()]);
  seeded.page_translation_requests = requests;

  const drafts = { old: ids(perTable, 'hk-key'), kept: ids(2, 'hk-key') };
  for (const k of drafts.old)
    await run(`INSERT INTO work_drafts (user_id, idempotency_key, body_hash, response, created_at) VALUES (?, ?, 'h', '{}', now() - interval '25 hours')`, [
      userId,
      k,
    ]);
  for (const k of drafts.kept)
    await run(`INSERT INTO work_drafts (user_id, idempotency_key, body_hash, response, created_at) VALUES (?, ?, 'h', '{}', now() - interval '23 hours')`, [
      userId,
      k,
    ]);
  seeded.work_drafts = drafts;

  const cache = { old: ids(perTable, 'hk-cache'), kept: ids(2, 'hk-cache') };
  const cacheRow = `INSERT INTO translation_cache (cache_key, source_language, target_language, model, prompt_version, translation,
                                                   detected_source_language, created_at)
                    VALUES (?, 'en', 'fr', 'm', 'p', 't', 'en', `;
  for (const k of cache.old) await run(cacheRow + `now() - interval '31 days')`, [k]);
  for (const k of cache.kept) await run(cacheRow + `now() - interval '29 days')`, [k]);
  // Answers of calls that carried several texts go with their call's context.
  for (const [days, into] of [
    [31, cache.old],
    [29, cache.kept],
  ] as const) {
    const keys = ids(2, 'hk-cache-call');
    await insertCacheCall(orm, keys, days);
    into.push(...keys);
  }
  seeded.translation_cache = cache;

  const clips = { old: [] as string[], kept: [] as string[] };
  for (let i = 0; i < perTable; i++) clips.old.push(await unlinkedClip(orm, userId, { unlinkedDaysAgo: 8 }));
  clips.kept.push(await unlinkedClip(orm, userId, { unlinkedDaysAgo: 6 }));
  clips.kept.push(await unlinkedClip(orm, userId, { unlinkedDaysAgo: 8, status: 'pending' }));
  seeded.audio_clips = clips;

  const card = await insertCard(orm, userId);
  const encounters = { old: [] as string[], kept: [] as string[] };
  for (let i = 0; i < perTable; i++) encounters.old.push(await insertEncounter(orm, card, userId, 31));
  for (let i = 0; i < 2; i++) encounters.kept.push(await insertEncounter(orm, card, userId, 29));
  seeded.card_encounters = encounters;
  return seeded;
}

/** A card of the user's, written directly (prepared, without a schedule). */
export async function insertCard(orm: Orm, userId: string): Promise<string> {
  const cardId = randomUUID();
  const text = uniqueText('met on a page');
  await orm.em
    .fork()
    .execute(`INSERT INTO cards (id, user_id, text, normalised_key, enrichment_status, enrichment) VALUES (?, ?, ?, ?, 'ready', '{}'::jsonb)`, [
      cardId,
      userId,
      text,
      text,
    ]);
  return cardId;
}

/** An encounter of the card recorded `daysAgo` days ago (met a minute before), counted on the card as the API counts it. Returns its page view id. */
export async function insertEncounter(orm: Orm, cardId: string, userId: string, daysAgo: number): Promise<string> {
  const pageViewId = randomUUID();
  const em = orm.em.fork();
  await em.execute(
    `INSERT INTO card_encounters (card_id, page_view_id, user_id, met_at, recorded_at)
     VALUES (?, ?, ?, now() - ? * interval '1 day' - interval '1 minute', now() - ? * interval '1 day')`,
    [cardId, pageViewId, userId, daysAgo, daysAgo],
  );
  await em.execute(`UPDATE cards SET met_count = met_count + 1, last_met_at = greatest(last_met_at, now() - ? * interval '1 day') WHERE id = ?`, [
    daysAgo,
    cardId,
  ]);
  return pageViewId;
}

/** A provider call that carried several texts, `daysAgo` days ago: its context and an answer per key. Returns the context id. */
export async function insertCacheCall(orm: Orm, keys: string[], daysAgo: number): Promise<string> {
  const [row] = await orm.em.fork().execute<{ id: string }[]>(
    `WITH context AS (
       INSERT INTO translation_contexts (cache_keys, created_at) VALUES (?::text[], now() - ? * interval '1 day') RETURNING id, created_at
     )
     INSERT INTO translation_cache (cache_key, source_language, target_language, model, prompt_version, translation, detected_source_language,
                                    context_id, created_at)
     SELECT k, 'en', 'fr', 'm', 'p', 't', 'en', context.id, context.created_at FROM unnest(?::text[]) AS k CROSS JOIN context RETURNING context_id AS id`,
    [`{${keys.join(',')}}`, daysAgo, `{${keys.join(',')}}`],
  );
  return String(row!.id);
}

/** A clip that lost its only link (its sentence was deleted) `unlinkedDaysAgo` days ago. */
export async function unlinkedClip(orm: Orm, userId: string, options: { unlinkedDaysAgo: number; status?: 'ready' | 'pending' }): Promise<string> {
  const clipId = await linkedClip(orm, userId, options.status);
  const em = orm.em.fork();
  await em.execute(`DELETE FROM sentences WHERE id IN (SELECT sentence_id FROM audio_requests WHERE audio_id = ?)`, [clipId]);
  await em.execute(`UPDATE audio_unlinks SET unlinked_at = now() - ? * interval '1 day' WHERE audio_id = ?`, [options.unlinkedDaysAgo, clipId]);
  return clipId;
}

/** A clip the user asked for, for one of their sentences. */
export async function linkedClip(orm: Orm, userId: string, status: 'ready' | 'pending' = 'ready'): Promise<string> {
  const em = orm.em.fork();
  const clipId = randomUUID();
  await em.execute(
    `INSERT INTO audio_clips (id, audio_key, engine, voice, model, status, pending_text, content_type, content, byte_length, finished_at)
     VALUES (?, ?, 'espeak-ng', 'en-us', 'espeak-ng', ?, ?, ?, ?, 3, ?)`,
    status === 'ready'
      ? [clipId, randomUUID(), 'ready', null, 'audio/wav', Buffer.from('wav'), new Date()]
      : [clipId, randomUUID(), 'pending', 'to speak', null, null, null],
  );
  await linkClip(orm, userId, clipId);
  return clipId;
}

/** Links the clip to a new sentence of the user's. */
export async function linkClip(orm: Orm, userId: string, clipId: string): Promise<void> {
  const sentenceId = await insertSentence(orm, userId, uniqueText('Housekeeping keeps this'));
  await orm.em.fork().execute(`INSERT INTO audio_requests (user_id, audio_id, sentence_id) VALUES (?, ?, ?)`, [userId, clipId, sentenceId]);
}

/** Which of the seeded rows are still there, per table. */
export async function remaining(orm: Orm, seeded: Seeded): Promise<Record<RetentionTable, { old: string[]; kept: string[] }>> {
  const em = orm.em.fork();
  const out = {} as Record<RetentionTable, { old: string[]; kept: string[] }>;
  for (const [table, rows] of Object.entries(seeded) as [RetentionTable, Seeded[RetentionTable]][]) {
    const present = new Set(
      (await em.execute<{ v: string }[]>(`SELECT ${IDENTITY[table]} AS v FROM ${table} WHERE ${IDENTITY[table]} IN (?)`, [[...rows.old, ...rows.kept]])).map(
        (r) => r.v,
      ),
    );
    out[table] = { old: rows.old.filter((v) => present.has(v)), kept: rows.kept.filter((v) => present.has(v)) };
  }
  return out;
}

export const undispatchedOutboxRows = async (orm: Orm, userId: string) =>
  (await orm.em.fork().execute<{ n: number }[]>(`SELECT count(*)::int AS n FROM workflow_outbox WHERE user_id = ? AND dispatched_at IS NULL`, [userId]))[0]!.n;
