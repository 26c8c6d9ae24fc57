import { randomUUID } from 'node:crypto';
import type { Em } from '../../db/orm.ts';
import { sql, allRows, firstRow, preparedStatement, run } from '../../db/sql.ts';
import { AppError } from '../../domain/problems.ts';
import { buildMask, hiddenCount, hiddenLetterShare } from './mask.ts';
import { type ReplayEvidence, type RatingName, ratingFromEvidence, ratingName } from '../../domain/replay-rating.ts';
import { type ReplayCount, planSession } from './session-plan.ts';
import { review, type ReviewLogRecord, type SchedulingState } from '../../domain/scheduling.ts';
import { cardFeedback, cardsInTheWild, contextsById, practiceCandidates } from '../library/card-reads.ts';
import { type ContextCloze, contextCloze, storedCloze } from './context-cloze.ts';
import { learnerScheduling } from './learner-scheduling.ts';
import { answerConflict, answerTimeProblem, recordedAt } from './answer-time-rules.ts';
import { lockSchedule, scheduleToJson, writeSchedule } from './schedule-store.ts';
import type { ReplayItemView, ReplayPrompt, ReplayResult, ReplaySessionView } from './schemas.ts';
import type { FeatureContext } from '../context.ts';

/** Namespace of the per-user advisory lock that serialises opening sessions. */
const SESSION_LOCK = 745006;

/** Prepared (src/db/sql.ts), like the three below: every Replay session opened or resumed runs them. */
const openSession = preparedStatement(
  'replay_open_session',
  (userId: string) => sql<{ id: string }>`SELECT id FROM replay_sessions WHERE user_id = ${userId} AND finished_at IS NULL`,
);

const sessionInsert = preparedStatement(
  'replay_session_insert',
  (sessionId: string, userId: string, count: ReplayCount, now: Date) =>
    sql`INSERT INTO replay_sessions (id, user_id, requested_count, created_at) VALUES (${sessionId}, ${userId}, ${count}, ${now})`,
);

const itemsInsert = preparedStatement(
  'replay_items_insert',
  (sessionId: string, userId: string, itemsJson: string) =>
    sql`INSERT INTO replay_items (id, session_id, user_id, card_id, position, answer, mask, context_id, context_mask)
     SELECT t.id, ${sessionId}, ${userId}, t.card_id, t.position, t.answer, t.mask, t.context_id, t.context_mask
     FROM jsonb_to_recordset(${itemsJson}::jsonb) AS t (id uuid, card_id uuid, position int, answer text, mask text, context_id uuid, context_mask text)`,
);

const remainingOf = preparedStatement(
  'replay_remaining_items',
  (sessionId: string) =>
    sql<{ id: string; card_id: string; answer: string; mask: string; context_id: string | null; context_mask: string | null }>`
     SELECT id, card_id, answer, mask, context_id, context_mask FROM replay_items WHERE session_id = ${sessionId} AND completed_at IS NULL ORDER BY position`,
);

/**
 * GET /api/replay: resumes the user's unfinished session, or opens a new one (see planSession
 * for the order). Concurrent calls for one user are serialised by an advisory lock, so they
 * never open two sessions; the partial unique index on open sessions is the backstop.
 * With nothing to practise no session is opened: `{ sessionId: null, items: [] }`.
 */
export async function openOrResumeSession(ctx: FeatureContext, userId: string, count: ReplayCount, now = new Date()): Promise<ReplaySessionView> {
  return ctx.em.transactional(async (tx) => {
    await run(tx, sql`SELECT pg_advisory_xact_lock(${SESSION_LOCK}::int, hashtext(${userId}))`);
    const open = await firstRow(tx, openSession(userId));
    if (open) {
      const items = await remainingItems(tx, open.id);
      if (items.length > 0) return { sessionId: open.id, resumed: true, items };
      // Every remaining item went with its deleted card: the session is over.
      await run(tx, sql`UPDATE replay_sessions SET finished_at = ${now} WHERE id = ${open.id}`);
    }

    const candidates = await practiceCandidates(tx, userId, count, now);
    const planned = planSession(candidates, count, now);
    if (planned.length === 0) return { sessionId: null, resumed: false, items: [] };
    const sessionId = randomUUID();
    await run(tx, sessionInsert(sessionId, userId, count, now));
    const ids = planned.map(() => randomUUID());
    const wild = await cardsInTheWild(
      tx,
      planned.map((p) => p.cardId),
    );
    const learning = new Map(candidates.map((c) => [c.cardId, c]));
    const clozes = planned.map((p) => {
      const context = wild.get(p.cardId)?.context;
      const card = learning.get(p.cardId)!;
      return context ? contextCloze(context, { cardId: p.cardId, stability: card.stability, reps: card.reps }) : null;
    });
    const rows = planned.map((p, i) => ({
      id: ids[i],
      card_id: p.cardId,
      position: p.position,
      answer: p.answer,
      mask: p.mask,
      context_id: clozes[i]?.contextId ?? null,
      context_mask: clozes[i]?.mask ?? null,
    }));
    await run(tx, itemsInsert(sessionId, userId, JSON.stringify(rows)));
    return {
      sessionId,
      resumed: false,
      items: planned.map((p, i) => ({
        itemId: ids[i]!,
        cardId: p.cardId,
        prompt: p.prompt,
        answer: p.answer,
        mask: p.mask,
        metSinceReview: wild.get(p.cardId)?.metSinceReview ?? false,
        context: clozes[i] ?? null,
      })),
    };
  });
}

async function remainingItems(tx: Em, sessionId: string): Promise<ReplayItemView[]> {
  const rows = await allRows(tx, remainingOf(sessionId));
  const feedback = await cardFeedback(
    tx,
    rows.map((r) => r.card_id),
  );
  // A card deleted meanwhile takes its items with it (cascade): they are not remaining any more.
  const live = rows.filter((r) => feedback.has(r.card_id));
  for (const r of live) {
    // The card's English changed since the item was made (a correction rejected, or made): the
    // item drills what the card holds now, with a mask built for it.
    const answer = feedback.get(r.card_id)!.answer;
    if (answer === r.answer) continue;
    const schedule = await lockSchedule(tx, r.card_id);
    r.answer = answer;
    r.mask = buildMask({ cardId: r.card_id, answer, stability: schedule?.stability ?? 0, reps: schedule?.reps ?? 0 });
    await run(tx, sql`UPDATE replay_items SET answer = ${r.answer}, mask = ${r.mask} WHERE id = ${r.id}`);
  }
  const wild = await cardsInTheWild(
    tx,
    live.map((r) => r.card_id),
  );
  const clozes = await itemClozes(tx, live);
  return live.map((r) => ({
    itemId: r.id,
    cardId: r.card_id,
    prompt: feedback.get(r.card_id)!.translation,
    answer: r.answer,
    mask: r.mask,
    metSinceReview: wild.get(r.card_id)?.metSinceReview ?? false,
    context: clozes.get(r.id) ?? null,
  }));
}

/** The context clozes of stored items, by item id: those whose context is still the card's. */
export async function itemClozes(
  tx: Em,
  items: readonly { id: string; context_id: string | null; context_mask: string | null }[],
): Promise<Map<string, ContextCloze>> {
  const withContext = items.filter((i) => i.context_id !== null && i.context_mask !== null);
  const contexts = await contextsById(
    tx,
    withContext.map((i) => i.context_id!),
  );
  const clozes = new Map<string, ContextCloze>();
  for (const item of withContext) {
    const context = contexts.get(item.context_id!);
    const cloze = context && storedCloze({ contextId: item.context_id!, ...context }, item.context_mask!);
    if (cloze) clozes.set(item.id, cloze);
  }
  return clozes;
}

interface ItemRow {
  id: string;
  session_id: string;
  card_id: string;
  mask: string;
  answer: string;
  context_id: string | null;
  context_mask: string | null;
  rating: RatingName | null;
  next_review_at: Date | null;
  completed_at: Date | null;
  session_started_at: Date;
}

/** Prepared (src/db/sql.ts), like the four below: every Replay answer runs them. */
const itemLock = preparedStatement(
  'replay_item_lock',
  (itemId: string, userId: string) =>
    sql<ItemRow>`SELECT i.id, i.session_id, i.card_id, i.mask, i.answer, i.context_id, i.context_mask, i.rating, i.next_review_at, i.completed_at,
       s.created_at AS session_started_at
     FROM replay_items i JOIN replay_sessions s ON s.id = i.session_id
     WHERE i.id = ${itemId} AND i.user_id = ${userId} FOR UPDATE OF i`,
);

const reviewLogInsert = preparedStatement(
  'review_log_insert',
  (item: ItemRow, userId: string, log: ReviewLogRecord, evidence: ReplayEvidence, hidden: number, before: SchedulingState, prompt: ReplayPrompt) =>
    sql`INSERT INTO review_logs (card_id, user_id, replay_item_id, rating, state, due, stability, difficulty, elapsed_days, last_elapsed_days,
       scheduled_days, learning_steps, reviewed_at, used_hint, auto_filled, unaided_errors, hidden_count, duration_ms, previous_schedule, prompt)
     VALUES (${item.card_id}, ${userId}, ${item.id}, ${log.rating}, ${log.state}, ${log.due}, ${log.stability}, ${log.difficulty}, ${log.elapsedDays},
       ${log.lastElapsedDays}, ${log.scheduledDays}, ${log.learningSteps}, ${log.review}, ${evidence.usedHint}, ${evidence.autoFilled},
       ${evidence.unaidedErrors}, ${hidden}, ${evidence.durationMs ?? null}, ${scheduleToJson(before)}::jsonb, ${prompt})`,
);

const sessionLock = preparedStatement('replay_session_lock', (sessionId: string) => sql`SELECT 1 FROM replay_sessions WHERE id = ${sessionId} FOR UPDATE`);

const itemCompletion = preparedStatement(
  'replay_item_complete',
  (itemId: string, now: Date, rating: RatingName, nextReviewAt: Date) =>
    sql`UPDATE replay_items SET completed_at = ${now}, rating = ${rating}, next_review_at = ${nextReviewAt} WHERE id = ${itemId}`,
);

const sessionFinish = preparedStatement(
  'replay_session_finish',
  (sessionId: string, now: Date) =>
    sql`UPDATE replay_sessions SET finished_at = ${now} WHERE id = ${sessionId} AND finished_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM replay_items WHERE session_id = ${sessionId} AND completed_at IS NULL)`,
);

/**
 * POST /api/replay: rates the evidence, reschedules the card, logs the review, once per item.
 * The item row is locked, so a repeated or concurrent completion waits and then gets the first
 * result without a second review. Another user's item → 404. Never charges.
 */
export async function completeItem(
  ctx: FeatureContext,
  userId: string,
  itemId: string,
  evidence: ReplayEvidence & { prompt?: ReplayPrompt | undefined; answeredAt?: string | undefined },
  now = new Date(),
): Promise<ReplayResult> {
  const answeredAt = evidence.answeredAt === undefined ? undefined : new Date(evidence.answeredAt);
  return ctx.em.transactional(async (tx) => {
    const item = await firstRow(tx, itemLock(itemId, userId));
    if (!item) throw new AppError('not_found', 'No such Replay item.');
    if (answeredAt) {
      const problem = answerTimeProblem(answeredAt, { now, sessionStartedAt: new Date(item.session_started_at) });
      if (problem) throw new AppError('invalid_request', 'The answer’s time cannot be accepted.', { errors: [{ path: 'answeredAt', message: problem }] });
    }
    const completedAt = item.completed_at && new Date(item.completed_at);
    const repeated = answeredAt && answerConflict(recordedAt(answeredAt, now), { completedAt, lastReview: null });
    if (repeated) throw new AppError('conflict', repeated);
    if (item.rating && item.next_review_at) return result(tx, item, item.rating, new Date(item.next_review_at));

    // The session row serialises completions with an undo in the same session (see undo.ts).
    await run(tx, sessionLock(item.session_id));
    const before = await lockSchedule(tx, item.card_id);
    if (!before) throw new AppError('not_found', 'The card of this item no longer exists.');
    const practisedSince = answeredAt && answerConflict(recordedAt(answeredAt, now), { completedAt: null, lastReview: before.lastReview });
    if (practisedSince) throw new AppError('conflict', practisedSince);
    // An answer given offline is recorded, and its card scheduled, as of the time it was given.
    now = recordedAt(answeredAt, now);
    // With the context prompt the learner reconstructed the expression as their sentence has it, under its own mask.
    const prompt = evidence.prompt ?? 'translation';
    const cloze = prompt === 'context' ? (await itemClozes(tx, [item])).get(item.id) : undefined;
    if (prompt === 'context' && !cloze) throw new AppError('invalid_request', 'This item has no context prompt; answer it with prompt "translation".');
    const [answer, mask] = cloze ? [cloze.answer, cloze.mask] : [item.answer, item.mask];
    const hidden = hiddenCount(mask);
    const rating = ratingFromEvidence(evidence, { hiddenCount: hidden, hiddenShare: hiddenLetterShare(answer, mask) });
    const { next, log } = review(before, rating, now, await learnerScheduling(tx, userId));

    await writeSchedule(tx, item.card_id, next);
    await run(tx, reviewLogInsert(item, userId, log, evidence, hidden, before, prompt));
    await run(tx, itemCompletion(item.id, now, ratingName(rating), next.due));
    await run(tx, sessionFinish(item.session_id, now));
    return result(tx, item, ratingName(rating), next.due);
  });
}

async function result(tx: Em, item: ItemRow, rating: RatingName, nextReviewAt: Date): Promise<ReplayResult> {
  const card = (await cardFeedback(tx, [item.card_id])).get(item.card_id);
  return {
    itemId: item.id,
    cardId: item.card_id,
    rating,
    nextReviewAt: nextReviewAt.toISOString(),
    feedback: { text: item.answer, translation: card!.translation, usage: card!.usage },
  };
}
