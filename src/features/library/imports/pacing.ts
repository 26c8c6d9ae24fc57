import { randomUUID } from 'node:crypto';
import type { Em } from '../../../db/orm.ts';
import { allRows, firstRow, run, sql } from '../../../db/sql.ts';
import { normaliseExpression } from '../../../domain/normalise.ts';
import type { Plan } from '../../../domain/plans.ts';
import { takeUpTo, type Quota } from '../../../domain/rate-limit.ts';
import { readBucket, spendFromBucket, userBucket } from '../../../services/rate-limit-store.ts';
import type { ImportHistory } from '../../../domain/imports.ts';
import { newSchedulingState, type SchedulingState } from '../../../domain/scheduling.ts';
import { learnerScheduling } from '../../replay/learner-scheduling.ts';
import { replayHistory, type ReplayedHistory } from './anki-history.ts';
import type { FeatureContext } from '../../context.ts';
import { getWallet } from '../../credits/wallet.ts';
import { creditsForCost } from '../../../domain/credits.ts';
import { CAPTURE_TEXT_MAX } from '../../../domain/limits.ts';
import { OUTPUT_TOKEN_LIMITS } from '../../../domain/model-budget.ts';
import { addContext } from '../context-store.ts';
import { placeContext } from '../contexts.ts';
import { preparationStart } from '../preparation.ts';
import { PREPARATION_TASK, preparationRequest, preparationSchemaFor } from '../preparation-rules.ts';
import type { ImportState } from './schemas.ts';
import { announceImport, markUnstartedCancelled } from './service.ts';

/**
 * What the `library-import/<importId>` workflow's activities do (src/activities/library-import.ts):
 * save the rows as cards, then start their preparations at the pace the learner's model budget
 * allows, leaving a reserve of it for interactive captures, with a bounded number in flight so an
 * interactive card is never queued behind hundreds. Every step is idempotent: a worker that dies
 * midway leaves the rows and the outbox as they were committed, and the retried activity goes on from there.
 */

/** Rows saved per transaction. */
const SAVE_BATCH = 500;
/** Preparations of one import running at once. */
export const IMPORT_PREPARATIONS_IN_FLIGHT = 16;
/** Preparations started per step at most. */
const START_BATCH = 50;
/** How long one pacing activity runs before it hands back to its workflow (a history event or three per minute). */
const PACE_FOR_MS = 50_000;
/** Between steps: never busier than this, never idler. */
const STEP_MIN_MS = 250;
const STEP_MAX_MS = 2_000;

interface ImportHead {
  user_id: string;
  state: ImportState;
}

async function lockImport(tx: Em, importId: string): Promise<ImportHead | undefined> {
  return firstRow<ImportHead>(tx, sql`SELECT user_id, state FROM library_imports WHERE id = ${importId} FOR UPDATE`);
}

/**
 * Saves the import's rows as cards through the capture's own rule (one card per expression, the
 * unique (user_id, normalised_key) index deciding, an existing card reused), SAVE_BATCH rows per
 * transaction. No preparation starts here: the pacing starts them. Rows already saved are skipped,
 * so a retry goes on where a dead worker stopped.
 */
export async function saveImportRows(ctx: FeatureContext, importId: string): Promise<void> {
  for (;;) {
    const more = await ctx.em.transactional(async (tx) => {
      const head = await lockImport(tx, importId);
      if (!head || head.state !== 'saving') return false;
      const rows = await allRows<ImportRowToSave>(
        tx,
        sql`SELECT position, text, context, history FROM library_import_rows WHERE import_id = ${importId} AND outcome IS NULL
         ORDER BY position LIMIT ${SAVE_BATCH}`,
      );
      const room = await libraryRoom(ctx, tx, head.user_id);
      // Every row saved, or the library full (captures since the import was admitted took its room): the rest stays unsaved.
      if (rows.length === 0 || !(await saveBatch(tx, importId, head.user_id, rows, room))) {
        await run(tx, sql`UPDATE library_imports SET state = 'preparing', updated_at = now() WHERE id = ${importId}`);
        return false;
      }
      return true;
    });
    if (!more) break;
  }
  const head = await firstRow<ImportHead>(ctx.em, sql`SELECT user_id, state FROM library_imports WHERE id = ${importId}`);
  if (head) announceImport(ctx.em, head.user_id, importId, head.state);
}

interface ImportRowToSave {
  position: number;
  text: string;
  context: string | null;
  history: ImportHistory | null;
}

/**
 * What the learner's library may still take on their plan, with their row locked (as a capture
 * locks it), so that nothing else adds cards until this transaction ends.
 */
async function libraryRoom(ctx: FeatureContext, tx: Em, userId: string): Promise<number> {
  const user = await firstRow<{ card_count: number; plan: Plan }>(tx, sql`SELECT card_count, plan FROM users WHERE id = ${userId} FOR NO KEY UPDATE`);
  return user ? Math.max(0, ctx.config.library.maxCards[user.plan] - user.card_count) : 0;
}

/**
 * Saves a batch: its new expressions as cards, at most `room` of them (in file order), its known
 * ones as reused. Returns false when a new expression found no room (the library is full): that
 * row and the ones after it are left unsaved.
 */
async function saveBatch(tx: Em, importId: string, userId: string, rows: ImportRowToSave[], room: number): Promise<boolean> {
  const now = new Date();
  const s = newSchedulingState(now);
  const ids = rows.map(() => randomUUID());
  const keys = rows.map((row) => normaliseExpression(row.text));
  const created = await allRows<{ id: string; normalised_key: string }>(
    tx,
    sql`WITH c AS (
       INSERT INTO cards (id, user_id, text, normalised_key, created_at, updated_at)
       SELECT r.id, ${userId}, r.text, r.key, ${now}, ${now}
       FROM unnest(${ids}::uuid[], ${rows.map((r) => r.text)}::text[], ${keys}::text[]) WITH ORDINALITY AS r (id, text, key, ord)
       WHERE NOT EXISTS (SELECT 1 FROM cards k WHERE k.user_id = ${userId} AND k.normalised_key = r.key)
       ORDER BY r.ord LIMIT ${room}
       ON CONFLICT (user_id, normalised_key) DO NOTHING RETURNING id, normalised_key
     ), schedule AS (
       INSERT INTO card_schedules (card_id, user_id, due, stability, difficulty, elapsed_days, scheduled_days, learning_steps, reps, lapses, state, last_review)
       SELECT id, ${userId}, ${s.due}, ${s.stability}, ${s.difficulty}, ${s.elapsedDays}, ${s.scheduledDays}, ${s.learningSteps},
       ${s.reps}, ${s.lapses}, ${s.state}, ${s.lastReview} FROM c
     )
     SELECT id, normalised_key FROM c`,
  );
  const createdByKey = new Map(created.map((c) => [c.normalised_key, c.id]));
  const reusedKeys = keys.filter((key) => !createdByKey.has(key));
  const existing = reusedKeys.length
    ? await allRows<{ id: string; normalised_key: string }>(
        tx,
        sql`SELECT id, normalised_key FROM cards WHERE user_id = ${userId} AND normalised_key = ANY(${reusedKeys}::text[])`,
      )
    : [];
  const existingByKey = new Map(existing.map((c) => [c.normalised_key, c.id]));
  // With the room used up, the first row that found no card ends the batch: it and those after it stay unsaved.
  const full = created.length >= room ? keys.findIndex((key) => !createdByKey.has(key) && !existingByKey.has(key)) : -1;
  const saved = full >= 0 ? rows.slice(0, full) : rows;
  const cardIds = keys.slice(0, saved.length).map((key) => createdByKey.get(key) ?? existingByKey.get(key) ?? null);
  const outcomes = keys.slice(0, saved.length).map((key) => (createdByKey.has(key) ? 'new' : 'reused'));
  await run(
    tx,
    sql`UPDATE library_import_rows r SET card_id = u.card_id, outcome = u.outcome
     FROM unnest(${saved.map((r) => r.position)}::int[], ${cardIds}::uuid[], ${outcomes}::text[]) AS u (position, card_id, outcome)
     WHERE r.import_id = ${importId} AND r.position = u.position`,
  );
  await keepSentences(tx, userId, saved, cardIds, createdByKey, keys, now);
  await keepHistories(tx, importId, userId, saved, keys, createdByKey, now);
  return full < 0;
}

/**
 * An Anki card's reviews (asked for with the import) become the new card's review log and its
 * schedule, replayed through FSRS with the learner's parameters (replayHistory), so its due date
 * carries over. In the batch's transaction: a resumed save finds these rows saved and skips them,
 * and each review is keyed by the card and Anki's review id besides. A card that was in the
 * library already keeps its own schedule and log.
 */
async function keepHistories(tx: Em, importId: string, userId: string, rows: ImportRowToSave[], keys: string[], createdByKey: Map<string, string>, now: Date) {
  const replayed = rows.flatMap((row, i) => {
    const cardId = createdByKey.get(keys[i]!);
    return cardId && row.history ? [{ cardId, history: row.history }] : [];
  });
  if (replayed.length === 0) return;
  const learner = await learnerScheduling(tx, userId);
  const logs: (ReplayedHistory['logs'][number] & { cardId: string })[] = [];
  const schedules: { cardId: string; s: SchedulingState }[] = [];
  for (const { cardId, history } of replayed) {
    const result = replayHistory(history, learner, now);
    if (!result) continue;
    logs.push(...result.logs.map((log) => ({ ...log, cardId })));
    schedules.push({ cardId, s: result.schedule });
  }
  if (schedules.length === 0) return;
  const col = <T>(pick: (s: SchedulingState) => T) => schedules.map(({ s }) => pick(s));
  await run(
    tx,
    sql`UPDATE card_schedules c SET due = u.due, stability = u.stability, difficulty = u.difficulty, elapsed_days = u.elapsed_days,
       scheduled_days = u.scheduled_days, learning_steps = u.learning_steps, reps = u.reps, lapses = u.lapses, state = u.state,
       last_review = u.last_review, updated_at = now()
     FROM unnest(${schedules.map((x) => x.cardId)}::uuid[], ${col((s) => s.due)}::timestamptz[], ${col((s) => s.stability)}::float8[],
       ${col((s) => s.difficulty)}::float8[], ${col((s) => s.elapsedDays)}::int[], ${col((s) => s.scheduledDays)}::int[],
       ${col((s) => s.learningSteps)}::int[], ${col((s) => s.reps)}::int[], ${col((s) => s.lapses)}::int[], ${col((s) => s.state)}::text[],
       ${col((s) => s.lastReview)}::timestamptz[])
       AS u (card_id, due, stability, difficulty, elapsed_days, scheduled_days, learning_steps, reps, lapses, state, last_review)
     WHERE c.card_id = u.card_id`,
  );
  for (let i = 0; i < logs.length; i += SAVE_BATCH * 4) {
    const part = logs.slice(i, i + SAVE_BATCH * 4);
    const of = <T>(pick: (l: (typeof logs)[number]) => T) => part.map(pick);
    await run(
      tx,
      sql`INSERT INTO review_logs (card_id, user_id, rating, state, due, stability, difficulty, elapsed_days, last_elapsed_days, scheduled_days,
         learning_steps, reviewed_at, used_hint, auto_filled, unaided_errors, hidden_count, anki_review_id)
       SELECT u.card_id, ${userId}, u.rating, u.state, u.due, u.stability, u.difficulty, u.elapsed_days, u.last_elapsed_days, u.scheduled_days,
         u.learning_steps, u.reviewed_at, false, false, 0, 0, u.anki_review_id
       FROM unnest(${of((l) => l.cardId)}::uuid[], ${of((l) => l.rating)}::text[], ${of((l) => l.state)}::text[], ${of((l) => l.due)}::timestamptz[],
         ${of((l) => l.stability)}::float8[], ${of((l) => l.difficulty)}::float8[], ${of((l) => l.elapsedDays)}::int[],
         ${of((l) => l.lastElapsedDays)}::int[], ${of((l) => l.scheduledDays)}::int[], ${of((l) => l.learningSteps)}::int[],
         ${of((l) => l.review)}::timestamptz[], ${of((l) => l.ankiReviewId)}::bigint[])
         AS u (card_id, rating, state, due, stability, difficulty, elapsed_days, last_elapsed_days, scheduled_days, learning_steps, reviewed_at,
           anki_review_id)
       ON CONFLICT (card_id, anki_review_id) WHERE anki_review_id IS NOT NULL DO NOTHING`,
    );
  }
  await run(
    tx,
    sql`UPDATE library_imports SET history_cards = history_cards + ${schedules.length}, history_reviews = history_reviews + ${logs.length}
     WHERE id = ${importId}`,
  );
}

/**
 * A row's sentence (a Kindle lookup's usage, a list's `context`) joins its card as a capture's
 * context does: the learner's own example, and for a new card the sense its preparation chooses.
 * A sentence that does not contain the expression (Kindle keeps the inflected form) stays on the
 * import row only.
 */
async function keepSentences(
  tx: Em,
  userId: string,
  rows: ImportRowToSave[],
  cardIds: (string | null)[],
  createdByKey: Map<string, string>,
  keys: string[],
  now: Date,
): Promise<void> {
  for (const [i, row] of rows.entries()) {
    const cardId = cardIds[i];
    if (!row.context || !cardId) continue;
    const placed = placeContext(row.context, [row.text]);
    if ('problem' in placed) continue;
    const context = await addContext(tx, { cardId, userId }, placed, now);
    if (createdByKey.get(keys[i]!) === cardId) {
      await run(tx, sql`UPDATE cards SET prepared_context_id = ${context.contextId} WHERE id = ${cardId} AND prepared_context_id IS NULL`);
    }
  }
}

export type PaceResult = { done: true } | { done: false; waitForCreditsUntil: string | null };

/**
 * Starts the import's preparations for up to PACE_FOR_MS, step by step: in each step's transaction
 * (the import row locked, as a cancellation locks it) it takes what the learner's model bucket can
 * give beyond the interactive reserve, bounded by the in-flight window and the credits there are,
 * marks that many rows started and writes their preparations' outbox rows. Returns when every row
 * is settled (done), when the credits are out and nothing is in flight (wait until they renew),
 * or when its time is up (called again). `beat` is the activity's heartbeat; `signal` its cancellation.
 */
export async function paceImport(ctx: FeatureContext, importId: string, beat: () => void = () => {}, signal?: AbortSignal): Promise<PaceResult> {
  const until = Date.now() + PACE_FOR_MS;
  const quota: Quota = { limit: ctx.config.rateLimit.modelMax, periodMs: ctx.config.rateLimit.windowSeconds * 1000 };
  const reserve = interactiveReserve(quota);
  const holdCeiling = preparationHoldCeiling(ctx);
  let lastAnnounced = 0;
  while (Date.now() < until && !signal?.aborted) {
    beat();
    const step = await ctx.em.transactional(async (tx) => {
      const head = await lockImport(tx, importId);
      if (!head || head.state === 'cancelled' || head.state === 'completed') return { done: true as const };
      const counts = (await firstRow<{ unstarted: number; in_flight: number; out_of_credits: number }>(
        tx,
        sql`SELECT count(*) FILTER (WHERE r.started_at IS NULL AND c.enrichment_status = 'pending')::int AS unstarted,
           count(*) FILTER (WHERE r.started_at IS NOT NULL AND c.enrichment_status = 'pending')::int AS in_flight,
           count(*) FILTER (WHERE c.enrichment_status = 'failed' AND c.enrichment_error ->> 'code' = 'insufficient_credits')::int AS out_of_credits
         FROM library_import_rows r JOIN cards c ON c.id = r.card_id WHERE r.import_id = ${importId} AND r.outcome = 'new'`,
      ))!;
      if (counts.unstarted === 0 && counts.in_flight === 0 && counts.out_of_credits === 0) {
        await run(tx, sql`UPDATE library_imports SET state = 'completed', finished_at = now(), resume_at = NULL, updated_at = now() WHERE id = ${importId}`);
        return { done: true as const, userId: head.user_id, state: 'completed' as const };
      }
      const wallet = await getWallet({ ...ctx, em: tx }, head.user_id);
      const available = wallet.balance - wallet.held;
      if (counts.out_of_credits > 0 || available <= 0) {
        if (available > 0 && head.state === 'waiting_for_credits') {
          // The credits renewed (or were topped up): the cards that ran out go again, paced like the rest.
          await retryOutOfCredits(tx, importId);
          await run(tx, sql`UPDATE library_imports SET state = 'preparing', resume_at = NULL, updated_at = now() WHERE id = ${importId}`);
          return { userId: head.user_id, state: 'preparing' as const, started: 0, nextInMs: 0 };
        }
        if (counts.in_flight === 0) {
          await run(
            tx,
            sql`UPDATE library_imports SET state = 'waiting_for_credits', resume_at = ${new Date(wallet.periodEnd)}, updated_at = now() WHERE id = ${importId}`,
          );
          return { wait: wallet.periodEnd, userId: head.user_id, state: 'waiting_for_credits' as const };
        }
        // Some are still in flight: they settle first.
        return { userId: head.user_id, state: head.state, started: 0, nextInMs: STEP_MAX_MS };
      }
      // As many as the credits there are can hold (each holds a preparation's ceiling until it is charged).
      const affordable = Math.floor(available / holdCeiling);
      // Short of one ceiling with nothing in flight, one is tried anyway: its real cost is usually far below it, and it says whether the credits are out.
      const window = Math.min(
        IMPORT_PREPARATIONS_IN_FLIGHT - counts.in_flight,
        counts.unstarted,
        START_BATCH,
        counts.in_flight === 0 ? Math.max(1, affordable) : affordable,
      );
      if (window <= 0) return { userId: head.user_id, state: head.state, started: 0, nextInMs: STEP_MIN_MS * 2 };
      const taken = await readModelBucket(tx, head.user_id, quota, window, reserve);
      const started = taken.granted > 0 ? await startPreparations(ctx, tx, importId, head.user_id, taken.granted) : 0;
      if (started > 0) await spendFromBucket(tx, userBucket('model', head.user_id), quota, started);
      return { userId: head.user_id, state: head.state, started, nextInMs: taken.nextInMs };
    });
    if ('done' in step) {
      if (step.state && step.userId) announceImport(ctx.em, step.userId, importId, step.state);
      return { done: true };
    }
    if ('wait' in step) {
      announceImport(ctx.em, step.userId, importId, 'waiting_for_credits');
      return { done: false, waitForCreditsUntil: step.wait ?? null };
    }
    if (step.started > 0) ctx.workflows.wakeRelay();
    if (Date.now() - lastAnnounced >= 1_000) {
      lastAnnounced = Date.now();
      announceImport(ctx.em, step.userId, importId, 'progress');
    }
    await pause(Math.min(STEP_MAX_MS, Math.max(STEP_MIN_MS, step.nextInMs)), signal);
  }
  return { done: false, waitForCreditsUntil: null };
}

/** What an import leaves in the learner's model bucket for interactive captures: a sixth of it. */
const interactiveReserve = (quota: Quota) => Math.max(1, Math.ceil(quota.limit / 6));

/**
 * How long paceImport takes to start `count` preparations from a full bucket, by its own rule
 * (steps, window, reserve), when every preparation ends before the next step and the credits
 * suffice: the least time an import of `count` takes within `quota` (the bench reports it for the
 * production budget rather than waiting for it).
 */
export function pacedStartMs(count: number, quota: Quota): number {
  const reserve = interactiveReserve(quota);
  let now = 0;
  let tat: number | null = null;
  for (let left = count; ;) {
    const taken = takeUpTo(tat, now, quota, Math.min(IMPORT_PREPARATIONS_IN_FLIGHT, left, START_BATCH), reserve);
    left -= taken.granted;
    if (taken.granted > 0) tat = taken.tat;
    if (left <= 0) return now;
    now += Math.min(STEP_MAX_MS, Math.max(STEP_MIN_MS, taken.nextInMs));
  }
}

/** The credits a preparation holds at most: its cost ceiling for the longest text a card may have. */
function preparationHoldCeiling(ctx: FeatureContext): number {
  const request = {
    task: PREPARATION_TASK,
    schema: preparationSchemaFor(null),
    ...preparationRequest('x'.repeat(CAPTURE_TEXT_MAX), 'en'),
    maxTokens: OUTPUT_TOKEN_LIMITS.capture_preparation,
  };
  return Math.max(1, creditsForCost('capture_preparation', ctx.model.costCeilingUsd(request)));
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}

/**
 * What the learner's model bucket (the one interactive captures take from) can give, less the
 * reserve; read without a lock. The step spends it as its last statement (spendFromBucket), so
 * the row that every interactive capture of the learner updates is held only through the commit,
 * not across the step: held from here, a step's statements at 10,000 rows made a capture during
 * an import wait 1.8 s at p99 against 0.23 s without one (`npm run bench imports`). What captures
 * took meanwhile is kept; at worst the import dips into the reserve by what arrived in those
 * milliseconds.
 */
async function readModelBucket(tx: Em, userId: string, quota: Quota, want: number, reserve: number) {
  const { tatMs, nowMs } = await readBucket(tx, userBucket('model', userId));
  return takeUpTo(tatMs, nowMs, quota, want, reserve);
}

/** Marks the next `count` unstarted rows started and writes their preparations' outbox rows, as a capture does. */
async function startPreparations(ctx: FeatureContext, tx: Em, importId: string, userId: string, count: number): Promise<number> {
  const started = await allRows<{ card_id: string; attempt: number }>(
    tx,
    sql`WITH next AS (
       SELECT r.position, c.id, c.enrichment_attempt FROM library_import_rows r JOIN cards c ON c.id = r.card_id
       WHERE r.import_id = ${importId} AND r.outcome = 'new' AND r.started_at IS NULL AND c.enrichment_status = 'pending'
       ORDER BY r.position LIMIT ${count}
     )
     UPDATE library_import_rows r SET started_at = now() FROM next
     WHERE r.import_id = ${importId} AND r.position = next.position RETURNING next.id AS card_id, next.enrichment_attempt AS attempt`,
  );
  for (const { card_id: cardId, attempt } of started) {
    await ctx.workflows.enqueue(tx, preparationStart(ctx.workflows, userId, cardId, attempt));
  }
  return started.length;
}

/**
 * The import's cards whose preparation failed for want of credits: pending again under their next
 * attempt and not started, so the pacing starts them. Only a card still failed that way is taken:
 * one the learner (or the renewal pass for interactive captures) has retried meanwhile is left to that retry.
 */
async function retryOutOfCredits(tx: Em, importId: string): Promise<void> {
  await run(
    tx,
    sql`WITH again AS (
       UPDATE cards c SET enrichment_status = 'pending', enrichment_error = NULL, enrichment = NULL,
         enrichment_attempt = c.enrichment_attempt + 1, updated_at = now()
       FROM library_import_rows r
       WHERE r.import_id = ${importId} AND r.card_id = c.id AND r.outcome = 'new'
         AND c.enrichment_status = 'failed' AND c.enrichment_error ->> 'code' = 'insufficient_credits'
       RETURNING c.id
     )
     UPDATE library_import_rows r SET started_at = NULL FROM again WHERE r.import_id = ${importId} AND r.card_id = again.id`,
  );
}

/** After the workflow was cancelled: whatever had not started is marked, and the import says so (idempotent). */
export async function finishCancelledImport(ctx: FeatureContext, importId: string): Promise<void> {
  const userId = await ctx.em.transactional(async (tx) => {
    const head = await lockImport(tx, importId);
    if (!head) return null;
    if (head.state !== 'completed' && head.state !== 'cancelled') {
      await run(tx, sql`UPDATE library_imports SET state = 'cancelled', finished_at = now(), updated_at = now() WHERE id = ${importId}`);
    }
    if (head.state !== 'completed') await markUnstartedCancelled(tx, importId);
    return head.user_id;
  });
  if (userId) announceImport(ctx.em, userId, importId, 'cancelled');
}
