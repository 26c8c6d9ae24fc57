import { randomUUID } from 'node:crypto';
import { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createHousekeepingActivities } from '../../../src/activities/housekeeping.ts';
import { RETENTION_TABLES, type HousekeepingPass, type RetentionTable, type SweepBudget } from '../../../src/domain/retention.ts';
import { createModelClient } from '../../../src/model/model-client.ts';
import { metricsRegistry } from '../../../src/platform/metrics.ts';
import { ensureHousekeepingSchedule, housekeepingScheduleId } from '../../../src/temporal/schedules.ts';
import { storeGeneratedAudio } from '../../../src/features/audio/service.ts';
import { allRows, sql as statement, type Sql } from '../../../src/db/sql.ts';
import {
  audioSweepSql,
  candidateSql,
  oldestFirstRule,
  retentionPolicy,
  sweepTable,
  translationCacheCutoff,
  translationCacheRules,
} from '../../../src/services/retention.ts';
import { runWorker } from '../../../src/worker/worker.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { balanceOf, newUser, type TestUser } from '../../support/users.ts';
import { insertSentence, uniqueText, waitForAudio } from '../audio/support.ts';
import {
  insertCacheCall,
  insertCard,
  insertEncounter,
  linkClip,
  linkedClip,
  remaining,
  seedRetentionRows,
  undispatchedOutboxRows,
  unlinkedClip,
} from './support.ts';
import type { TranslateRequest } from '../page-translation/support.ts';
import { api, bodyOf, expectStatus } from '../../support/api.ts';

let stack: Stack;
let user: TestUser;
// Two rows per batch, so that three old rows per table take more than one batch.
beforeAll(async () => {
  stack = await startStack({ env: { HOUSEKEEPING_BATCH_ROWS: '2' } });
  user = await newUser(stack);
});
afterAll(async () => {
  await stack?.orm.em.fork().execute(`DELETE FROM workflow_outbox WHERE user_id = ? AND dispatched_at IS NULL`, [user?.userId ?? null]);
  await stack?.close();
});

const scheduleOf = (taskQueue: string) => stack.temporal.schedule.getHandle(housekeepingScheduleId(taskQueue));
const withTaskQueue = (taskQueue: string, housekeeping = stack.config.housekeeping) => ({
  ...stack.config,
  housekeeping,
  temporal: { ...stack.config.temporal, taskQueue },
});

async function schedulesNamed(scheduleId: string): Promise<string[]> {
  const found: string[] = [];
  for await (const schedule of stack.temporal.schedule.list()) if (schedule.scheduleId === scheduleId) found.push(schedule.scheduleId);
  return found;
}

describe('the housekeeping schedule', () => {
  it('exists once the worker has started: every HOUSEKEEPING_INTERVAL_MINUTES, skipping overlaps, on this task queue', async () => {
    const schedule = await scheduleOf(stack.config.temporal.taskQueue).describe();
    expect(schedule.spec.intervals?.map((i) => i.every)).toEqual([60 * 60_000]);
    expect(schedule.policies.overlap).toBe('SKIP');
    expect(schedule.action).toMatchObject({ workflowType: 'housekeepingWorkflow', taskQueue: stack.config.temporal.taskQueue });
    expect(schedule.state.paused).toBe(false);
  });

  it('is found again, not duplicated or rewritten, by a second worker start', async () => {
    const id = housekeepingScheduleId(stack.config.temporal.taskQueue);
    const before = await scheduleOf(stack.config.temporal.taskQueue).describe();
    const second = await runWorker({
      config: stack.config,
      orm: stack.orm,
      temporal: stack.temporal,
      model: createModelClient(stack.config.model),
      bundle: { codePath: inject('infra').workflowBundlePath },
    });
    await second.stop();
    const after = await scheduleOf(stack.config.temporal.taskQueue).describe();
    expect(after.info.createdAt).toEqual(before.info.createdAt);
    expect(after.info.lastUpdatedAt).toEqual(before.info.lastUpdatedAt);
    await vi.waitFor(async () => expect(await schedulesNamed(id)).toEqual([id]), { timeout: 15_000, interval: 250 });
  });

  it('is created exactly once when several workers start at the same moment', async () => {
    const config = withTaskQueue(`test-${randomUUID()}`);
    const logger = { error: vi.fn() };
    const outcomes = await Promise.all([1, 2, 3, 4].map(() => ensureHousekeepingSchedule(stack.temporal, config, logger)));
    expect(outcomes.sort()).toEqual(['created', 'unchanged', 'unchanged', 'unchanged']);
    expect(logger.error).not.toHaveBeenCalled();
    const id = housekeepingScheduleId(config.temporal.taskQueue);
    await vi.waitFor(async () => expect(await schedulesNamed(id)).toEqual([id]), { timeout: 15_000, interval: 250 });
  });

  it('takes a changed interval from the next worker start, keeping an operator’s pause', async () => {
    const taskQueue = `test-${randomUUID()}`;
    expect(await ensureHousekeepingSchedule(stack.temporal, withTaskQueue(taskQueue))).toBe('created');
    await scheduleOf(taskQueue).pause('paused by an operator');
    const retimed = withTaskQueue(taskQueue, { ...stack.config.housekeeping, intervalMinutes: 15 });
    expect(await ensureHousekeepingSchedule(stack.temporal, retimed)).toBe('updated');
    const schedule = await scheduleOf(taskQueue).describe();
    expect(schedule.spec.intervals?.map((i) => i.every)).toEqual([15 * 60_000]);
    expect(schedule.state).toMatchObject({ paused: true, note: 'paused by an operator' });
    expect(await ensureHousekeepingSchedule(stack.temporal, retimed)).toBe('unchanged');
  });

  it('a namespace that refuses the schedule gets a loud error line, and the worker is not stopped by it', async () => {
    const refusing = new Client({ connection: stack.temporal.connection, namespace: `no-such-namespace-${randomUUID()}` });
    const logger = { error: vi.fn() };
    expect(await ensureHousekeepingSchedule(refusing, stack.config, logger)).toBe('refused');
    expect(logger.error).toHaveBeenCalledWith(expect.stringMatching(/^HOUSEKEEPING IS OFF: the Temporal Schedule housekeeping\/test-/));
  });
});

describe('a housekeeping pass', () => {
  it('triggered from the schedule, deletes exactly the rows past their bound, in batches, with its counts in Temporal and in metrics', async () => {
    const seeded = await seedRetentionRows(stack.orm, user.userId);
    const deletedMetric = async () => {
      const values = (await metricsRegistry.getSingleMetric('lcs_retention_rows_deleted_total')?.get())?.values ?? [];
      return Object.fromEntries(values.map((v) => [String(v.labels.table), v.value]));
    };
    const metricsBefore = await deletedMetric();

    const schedule = scheduleOf(stack.config.temporal.taskQueue);
    const actionsBefore = (await schedule.describe()).info.numActionsTaken;
    await schedule.trigger();
    const started = await vi.waitFor(
      async () => {
        const info = (await schedule.describe()).info;
        expect(info.numActionsTaken).toBeGreaterThan(actionsBefore);
        return info.recentActions.at(-1)!.action.workflow;
      },
      { timeout: 15_000, interval: 200 },
    );
    expect(started.workflowId).toMatch(new RegExp(`^housekeeping/${stack.config.temporal.taskQueue}-`));

    const run = stack.temporal.workflow.getHandle(started.workflowId, started.firstExecutionRunId);
    const pass: HousekeepingPass = await run.result();
    expect(pass.failed).toEqual([]);
    for (const table of RETENTION_TABLES) {
      // Other test files share the database: at least our old rows went, in batches of two.
      expect(pass.tables[table]!.deleted, table).toBeGreaterThanOrEqual(seeded[table].old.length);
      expect(pass.tables[table]!.batches, table).toBeGreaterThanOrEqual(2);
      expect(pass.tables[table]!.more, table).toBe(false);
    }
    expect(pass.deleted).toBe(RETENTION_TABLES.reduce((sum, t) => sum + pass.tables[t]!.deleted, 0));

    const left = await remaining(stack.orm, seeded);
    for (const table of RETENTION_TABLES) {
      expect(left[table].old, `${table}: old rows left`).toEqual([]);
      expect(left[table].kept, `${table}: rows within their bound`).toEqual(seeded[table].kept);
    }
    expect(await undispatchedOutboxRows(stack.orm, user.userId)).toBe(1);

    // The Web UI shows one activity per table and the reporting step; the result is the counts.
    const history = await run.fetchHistory();
    const scheduled = history
      .events!.filter((e) => e.activityTaskScheduledEventAttributes)
      .map((e) => e.activityTaskScheduledEventAttributes!.activityType!.name);
    expect(scheduled).toEqual([...RETENTION_TABLES.map(() => 'sweepRetentionTable'), 'recordHousekeepingPass']);
    expect((await run.describe()).status.name).toBe('COMPLETED');

    const metricsAfter = await deletedMetric();
    for (const table of RETENTION_TABLES) expect((metricsAfter[table] ?? 0) - (metricsBefore[table] ?? 0), table).toBe(pass.tables[table]!.deleted);
  });

  it('is reported in one log line of counts and in the passes metric', async () => {
    const logger = { info: vi.fn() };
    const activities = createHousekeepingActivities({ config: stack.config, orm: stack.orm, model: createModelClient(stack.config.model) }, logger);
    const passes = async (outcome: string) =>
      ((await metricsRegistry.getSingleMetric('lcs_housekeeping_passes_total')?.get())?.values ?? []).find((v) => v.labels.outcome === outcome)?.value ?? 0;
    const unfinishedBefore = await passes('unfinished');
    await activities.recordHousekeepingPass({
      deleted: 7,
      tables: { sessions: { deleted: 2, batches: 1, more: false }, translation_cache: { deleted: 5, batches: 1, more: true } },
      failed: [],
    });
    expect(logger.info).toHaveBeenCalledTimes(1);
    expect(logger.info).toHaveBeenCalledWith(
      { deleted: { sessions: 2, translation_cache: 5 }, total: 7, unfinished: ['translation_cache'], failed: [] },
      'housekeeping pass',
    );
    expect(await passes('unfinished')).toBe(unfinishedBefore + 1);
  });
});

const policy = () => retentionPolicy(stack.config);
const sweep = (table: RetentionTable, budget: Partial<SweepBudget> = {}) =>
  sweepTable(stack.orm.em.fork(), table, policy(), { batchRows: 500, maxRows: 50_000, maxMs: 20_000, ...budget });
const sql = <T = any>(query: string, params: unknown[] = []) => stack.orm.em.fork().execute<T[]>(query, params);

/** Work drafts of the user's made `hoursAgo` hours ago, one second apart (oldest first). */
async function drafts(userId: string, count: number, hoursAgo: number): Promise<string[]> {
  const keys = Array.from({ length: count }, (_, i) => `hk-budget-${i}-${randomUUID()}`);
  for (const [i, key] of keys.entries()) {
    await sql(
      `INSERT INTO work_drafts (user_id, idempotency_key, body_hash, response, created_at)
       VALUES (?, ?, 'h', '{}', now() - ? * interval '1 hour' + ? * interval '1 second')`,
      [userId, key, hoursAgo, i],
    );
  }
  return keys;
}
const draftsLeft = async (keys: string[]) =>
  (await sql<{ idempotency_key: string }>(`SELECT idempotency_key FROM work_drafts WHERE idempotency_key IN (?) ORDER BY created_at`, [keys])).map(
    (r) => r.idempotency_key,
  );

describe('retention sweeps', () => {
  it('stop at the row budget, oldest first, and the next pass continues where the last one stopped', async () => {
    const old = await drafts(user.userId, 5, 30);
    const kept = await drafts(user.userId, 2, 1);
    expect(await sweep('work_drafts', { batchRows: 2, maxRows: 3 })).toEqual({ deleted: 3, batches: 2, more: true });
    expect(await draftsLeft([...old, ...kept])).toEqual([...old.slice(3), ...kept]);
    // A full batch may leave more: the sweep looks once more and finds the table clean.
    expect(await sweep('work_drafts', { batchRows: 2, maxRows: 3 })).toEqual({ deleted: 2, batches: 2, more: false });
    expect(await draftsLeft([...old, ...kept])).toEqual(kept);
  });

  it('stop when the time budget is spent', async () => {
    const old = await drafts(user.userId, 3, 30);
    expect(await sweep('work_drafts', { batchRows: 1, maxMs: 0 })).toEqual({ deleted: 0, batches: 0, more: true });
    expect(await sweep('work_drafts', { batchRows: 1 })).toMatchObject({ deleted: 3, batches: 4, more: false });
    expect(await draftsLeft(old)).toEqual([]);
  });

  it('running twice at once delete each row once and fail neither', async () => {
    const old = await drafts(user.userId, 40, 30);
    const [a, b] = await Promise.all([sweep('work_drafts', { batchRows: 3 }), sweep('work_drafts', { batchRows: 3 })]);
    expect(a.deleted + b.deleted).toBe(40);
    expect(await draftsLeft(old)).toEqual([]);
  });

  it('bound the translation cache by row count too: beyond the cap, the least recently created go first', async () => {
    const keys = Array.from({ length: 6 }, () => `hk-cap-${randomUUID()}`);
    for (const [i, key] of keys.entries()) {
      await sql(
        `INSERT INTO translation_cache (cache_key, source_language, target_language, model, prompt_version, translation, detected_source_language, created_at)
                 VALUES (?, 'en', 'fr', 'm', 'p', 't', 'en', now() - interval '20 days' + ? * interval '1 second')`,
        [key, i],
      );
    }
    const [counts] = await sql<{ total: number; older: number }>(
      `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE created_at < (SELECT created_at FROM translation_cache WHERE cache_key = ?))::int AS older
       FROM translation_cache`,
      [keys[0]],
    );
    const { total, older } = counts!;
    const below = async (cutoff: string) =>
      (
        await sql<{ cache_key: string }>(`SELECT cache_key FROM translation_cache WHERE cache_key IN (?) AND created_at < ?::timestamptz ORDER BY created_at`, [
          keys,
          cutoff,
        ])
      ).map((r) => r.cache_key);
    // A cap two rows short of the table (counting from our oldest entry) cuts our two oldest
    // entries; other test files' entries, added meanwhile, are newer and can only move it later.
    const capped = await below(await translationCacheCutoff(stack.orm.em.fork(), { ...policy(), translationCacheMaxRows: total - older - 2 }));
    expect(capped.slice(0, 2)).toEqual(keys.slice(0, 2));
    expect(capped).toEqual(keys.slice(0, capped.length));
    // Under the cap, only the age bound counts.
    expect(await below(await translationCacheCutoff(stack.orm.em.fork(), { ...policy(), translationCacheMaxRows: total + 1000 }))).toEqual([]);
  });

  it(
    'sweep the translation cache by its calls: an old call goes as its context with all its answers; ' + 'newer calls and answers of the same text stay',
    async () => {
      const [shared, neighbour, other] = [1, 2, 3].map(() => `hk-call-${randomUUID()}`) as [string, string, string];
      const oldCall = await insertCacheCall(stack.orm, [shared, neighbour], 31);
      const newCall = await insertCacheCall(stack.orm, [shared, other], 29);
      const cacheRow = `INSERT INTO translation_cache (cache_key, source_language, target_language, model, prompt_version, translation,
                                                         detected_source_language, created_at)
                        VALUES (?, 'en', 'fr', 'm', 'p', 't', 'en', now() - ? * interval '1 day')`;
      await sql(cacheRow, [shared, 29]); // the same text asked alone, within the bound
      const oldAlone = `hk-call-${randomUUID()}`;
      await sql(cacheRow, [oldAlone, 31]);

      expect((await sweep('translation_cache')).deleted).toBeGreaterThanOrEqual(3);
      const contexts = await sql<{ id: string }>(`SELECT id::text AS id FROM translation_contexts WHERE id IN (?)`, [[oldCall, newCall]]);
      expect(contexts.map((c) => c.id)).toEqual([newCall]);
      const answers = await sql<{ cache_key: string; context_id: string | null }>(
        `SELECT cache_key, context_id::text AS context_id FROM translation_cache WHERE cache_key IN (?)`,
        [[shared, neighbour, other, oldAlone]],
      );
      const named = (rows: { cache_key: string; context_id: string | null }[]) => rows.map((r) => `${r.cache_key}@${r.context_id ?? 'alone'}`).sort();
      expect(named(answers)).toEqual(
        named([
          { cache_key: other, context_id: newCall },
          { cache_key: shared, context_id: null },
          { cache_key: shared, context_id: newCall },
        ]),
      );
    },
  );

  it('use their indexes (plans with sequential scans disallowed)', async () => {
    const expected = {
      sessions: 'sessions_expires_idx',
      rate_limit_buckets: 'rate_limit_buckets_tat_idx',
      login_failures: 'login_failures_last_idx',
      workflow_outbox: 'workflow_outbox_dispatched_idx',
      page_translation_requests: 'page_translation_requests_activity_idx',
      work_drafts: 'work_drafts_created_idx',
      card_encounters: 'card_encounters_recorded_idx',
    } as const;
    const expectIndex = (text: string, index: string) => {
      expect(text, index).toMatch(new RegExp(`Index (Only )?Scan (using|on) ${index}`));
      expect(text, index).not.toContain('Seq Scan');
    };
    const plan = (query: Sql) =>
      stack.orm.em.fork().transactional(async (tx) => {
        await tx.execute(`SET LOCAL enable_seqscan = off`);
        return (await allRows<{ 'QUERY PLAN': string }>(tx, statement`EXPLAIN ${query}`)).map((r) => r['QUERY PLAN']).join('\n');
      });
    for (const [table, index] of Object.entries(expected) as [keyof typeof expected, string][]) {
      expectIndex(await plan(candidateSql(table, oldestFirstRule(table, policy()), 500)), index);
    }
    const cache = translationCacheRules(await translationCacheCutoff(stack.orm.em.fork(), policy()));
    expectIndex(await plan(candidateSql('translation_cache', cache.alone, 500)), 'translation_cache_alone_created_idx');
    expectIndex(await plan(candidateSql('translation_contexts', cache.calls, 500)), 'translation_contexts_created_idx');
    // What the cascade from a context deletes is found by its context.
    expectIndex(await plan(statement`SELECT id FROM translation_cache WHERE context_id = ${1}`), 'translation_cache_context_idx');
    expectIndex(await plan(audioSweepSql(7, 500)), 'audio_unlinks_at_idx');
  });
});

describe('encounters past their bound', () => {
  it('go after RETENTION_ENCOUNTER_DAYS; newer ones stay, and the card keeps its count and last time', async () => {
    const other = await newUser(stack);
    const mine = await insertCard(stack.orm, user.userId);
    const theirs = await insertCard(stack.orm, other.userId);
    const old = [await insertEncounter(stack.orm, mine, user.userId, 31), await insertEncounter(stack.orm, mine, user.userId, 30.1)];
    const recent = [await insertEncounter(stack.orm, mine, user.userId, 29), await insertEncounter(stack.orm, mine, user.userId, 1)];
    const theirsRecent = await insertEncounter(stack.orm, theirs, other.userId, 2);
    const totals = `SELECT id::text AS id, met_count, last_met_at FROM cards WHERE id IN (?) ORDER BY id`;
    const before = await sql(totals, [[mine, theirs]]);

    expect((await sweep('card_encounters')).deleted).toBeGreaterThanOrEqual(old.length);
    const left = await sql<{ card_id: string; page_view_id: string }>(
      `SELECT card_id::text AS card_id, page_view_id::text AS page_view_id FROM card_encounters WHERE card_id IN (?) ORDER BY recorded_at`,
      [[mine, theirs]],
    );
    expect(left.filter((r) => r.card_id === mine).map((r) => r.page_view_id)).toEqual(recent);
    expect(left.filter((r) => r.card_id === theirs).map((r) => r.page_view_id)).toEqual([theirsRecent]);
    // The totals live on the card: the library's "met most often" and Replay's "met since last review" read them.
    expect(await sql(totals, [[mine, theirs]])).toEqual(before);
    expect(before.find((c: { id: string }) => c.id === mine)).toMatchObject({ met_count: 4 });
  });
});

const clipExists = async (id: string) => (await sql(`SELECT 1 FROM audio_clips WHERE id = ?`, [id])).length === 1;
const unlinkEntries = async (id: string) => (await sql<{ n: number }>(`SELECT count(*)::int AS n FROM audio_unlinks WHERE audio_id = ?`, [id]))[0]!.n;

describe('unlinked audio clips', () => {
  it('go once the grace time has passed since their last link went; generating, linked-again and recently unlinked clips stay', async () => {
    const expired = await unlinkedClip(stack.orm, user.userId, { unlinkedDaysAgo: 8 });
    const inGrace = await unlinkedClip(stack.orm, user.userId, { unlinkedDaysAgo: 6 });
    const generating = await unlinkedClip(stack.orm, user.userId, { unlinkedDaysAgo: 8, status: 'pending' });
    const linkedAgain = await unlinkedClip(stack.orm, user.userId, { unlinkedDaysAgo: 8 });
    await linkClip(stack.orm, user.userId, linkedAgain);
    // Unlinked long ago, linked again, and unlinked again just now: the grace time starts again.
    const unlinkedAgain = await unlinkedClip(stack.orm, user.userId, { unlinkedDaysAgo: 8 });
    await linkClip(stack.orm, user.userId, unlinkedAgain);
    await sql(`DELETE FROM sentences WHERE id IN (SELECT sentence_id FROM audio_requests WHERE audio_id = ?)`, [unlinkedAgain]);
    const linked = await linkedClip(stack.orm, user.userId);

    expect((await sweep('audio_clips')).deleted).toBeGreaterThanOrEqual(1);
    expect(await clipExists(expired)).toBe(false);
    for (const kept of [inGrace, generating, linkedAgain, unlinkedAgain, linked]) expect(await clipExists(kept)).toBe(true);
    // What was learnt from an old unlink is forgotten; the generating clip's waits for its end.
    expect(await unlinkEntries(expired)).toBe(0);
    expect(await unlinkEntries(linkedAgain)).toBe(0);
    expect(await unlinkEntries(unlinkedAgain)).toBe(1);
    expect(await unlinkEntries(generating)).toBe(1);
  });

  it('a card deleted through the API starts its clip’s grace time, and the clip goes after it', async () => {
    const card = await api(stack, { token: user.token }).POST('/api/library', { body: { text: uniqueText('spill the beans') } });
    expectStatus(card, 202);
    const requested = await api(stack, { token: user.token }).POST('/api/audio', { body: { cardId: card.body.card.cardId } });
    expectStatus(requested, 202);
    const { audioId } = await waitForAudio(stack, user, requested.body.audio.audioId);
    expect(await unlinkEntries(audioId)).toBe(0);

    expect((await api(stack, { token: user.token }).DELETE('/api/library', { params: { query: { cardId: card.body.card.cardId } } })).status).toBe(204);
    expect(await unlinkEntries(audioId)).toBe(1);
    await sweep('audio_clips');
    expect(await clipExists(audioId)).toBe(true);

    await sql(`UPDATE audio_unlinks SET unlinked_at = now() - interval '8 days' WHERE audio_id = ?`, [audioId]);
    await sweep('audio_clips');
    expect(await clipExists(audioId)).toBe(false);
  });

  it('a request for a clip that housekeeping deletes at that very moment makes the clip anew (no 500)', async () => {
    const [first, second] = [user, await newUser(stack)];
    const text = uniqueText('Everyone says the same thing');
    const firstSentence = await insertSentence(stack.orm, first.userId, text);
    const secondSentence = await insertSentence(stack.orm, second.userId, text);
    const requested = await api(stack, { token: first.token }).POST('/api/audio', { body: { sentenceId: firstSentence } });
    const { audioId } = await waitForAudio(stack, first, bodyOf(requested, 202).audio.audioId);
    await sql(`DELETE FROM sentences WHERE id = ?`, [firstSentence]);
    const requestClip = () => api(stack, { token: second.token }).POST('/api/audio', { body: { sentenceId: secondSentence } });

    // A sweep batch holds the unlinked clip locked while the second user asks for the same text,
    // and deletes it once that request waits for the lock.
    let answer: ReturnType<typeof requestClip> | undefined;
    await stack.orm.em.fork().transactional(async (tx) => {
      await tx.execute(`SELECT id FROM audio_clips WHERE id = ? FOR UPDATE`, [audioId]);
      answer = requestClip();
      await vi.waitFor(
        async () => {
          const waiting = await sql(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%FROM audio_clips WHERE audio_key%'`);
          expect(waiting.length).toBeGreaterThan(0);
        },
        { timeout: 10_000, interval: 50 },
      );
      await tx.execute(`DELETE FROM audio_clips WHERE id = ?`, [audioId]);
    });
    const res = await answer!;
    expectStatus(res, 202);
    expect(res.body.audio.audioId).not.toBe(audioId);
    expect((await waitForAudio(stack, second, res.body.audio.audioId)).status).toBe('ready');
  });
});

describe('idempotency records past their window', () => {
  const ledger = async (userId: string, kind: string) =>
    (await sql<{ amount: number }>(`SELECT amount FROM ledger_entries WHERE user_id = ? AND kind = ? ORDER BY id`, [userId, kind])).map((r) => r.amount);

  it('a request_id used again after its record was swept is a new request, and charged', async () => {
    const translator = await newUser(stack);
    const requestId = `req-${randomUUID()}`;
    const body = (text: string): TranslateRequest => ({ request_id: requestId, target_language: 'fr', source_language: 'en', items: [{ id: 'a', text }] });
    const first = await api(stack, { token: translator.token }).POST('/api/immersive-translate', { body: body(uniqueText('First page')) });
    expectStatus(first, 200);
    expect(first.body.credits_charged).toBeGreaterThan(0);
    await sql(`UPDATE page_translation_requests SET completed_at = now() - interval '25 hours' WHERE request_id = ?`, [requestId]);
    await sweep('page_translation_requests');

    const before = await balanceOf(stack, translator);
    const again = await api(stack, { token: translator.token }).POST('/api/immersive-translate', { body: body(uniqueText('Another page')) });
    expectStatus(again, 200);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await balanceOf(stack, translator)).toBe(before - again.body.credits_charged);
    expect(await ledger(translator.userId, 'page_translation')).toEqual([-first.body.credits_charged, -again.body.credits_charged]);
  });

  it('an Idempotency-Key used again after its draft was swept is a new request, and charged', async () => {
    const writer = await newUser(stack);
    const key = `key-${randomUUID()}`;
    const draft = (prompt: string) =>
      api(stack, { token: writer.token }).POST('/api/work', { body: { prompt }, params: { header: { 'idempotency-key': key } } });
    const first = await draft('Je voudrais annuler ma réservation');
    expectStatus(first, 200);
    expect(first.body.creditsCharged).toBeGreaterThan(0);
    await sql(`UPDATE work_drafts SET created_at = now() - interval '25 hours' WHERE idempotency_key = ?`, [key]);
    await sweep('work_drafts');

    const before = await balanceOf(stack, writer);
    const again = await draft('Pourriez-vous me rappeler demain ?');
    expectStatus(again, 200);
    expect(again.body.creditsCharged).toBeGreaterThan(0);
    expect(await balanceOf(stack, writer)).toBe(before - again.body.creditsCharged);
    expect(await ledger(writer.userId, 'work')).toEqual([-first.body.creditsCharged, -again.body.creditsCharged]);
  });
});

describe('a clip made anew after housekeeping deleted the old one', () => {
  it('is charged to whoever asked for it again', async () => {
    const payer = await newUser(stack);
    const key = randomUUID();
    const generate = async () => {
      const audioId = randomUUID();
      await sql(
        `INSERT INTO audio_clips (id, audio_key, engine, voice, model, status, pending_text, requested_by)
         VALUES (?, ?, 'remote', 'alloy', 'tts', 'pending', 'hello', ?)`,
        [audioId, key, payer.userId],
      );
      const job = { audioId, audioKey: key, text: 'hello', engine: 'remote', voice: 'alloy', model: 'tts', requestedBy: payer.userId };
      await storeGeneratedAudio(stack.context(), job, { bytes: Buffer.from('ID3'), contentType: 'audio/mpeg' }, '0.0002');
      return audioId;
    };
    const first = await generate();
    await sql(`DELETE FROM audio_clips WHERE id = ?`, [first]);
    await generate();
    expect((await sql(`SELECT amount FROM ledger_entries WHERE user_id = ? AND kind = 'audio'`, [payer.userId])).length).toBe(2);
  });
});
