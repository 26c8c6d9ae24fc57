import { randomUUID } from 'node:crypto';
import type { Em } from '../../db/orm.ts';
import { sql, allRows, firstRow, preparedStatement, run, type Sql } from '../../db/sql.ts';
import { cleanCaptureText, normaliseExpression } from '../../domain/normalise.ts';
import type { Plan } from '../../domain/plans.ts';
import { AppError, libraryFull } from '../../domain/problems.ts';
import { newSchedulingState, type SchedulingStateName } from '../../domain/scheduling.ts';
import { counter } from '../../platform/metrics.ts';
import { enqueueFrom, type WorkflowStart, type WorkflowStarter } from '../../temporal/workflow-starter.ts';
import type { FeatureContext } from '../context.ts';
import { encountersOfCard } from './encounters.ts';
import { addContext, contextsOfCard, placedOrRefused } from './context-store.ts';
import type { CardContextView, PlacedContext } from './contexts.ts';
import { type ListCursor, encodeCursor } from './listing.ts';
import { preparationStart, preparationWorkflowId } from './preparation.ts';
import type { CardPreparation, PreparationError } from './preparation-rules.ts';
import type { Card, CardDetail, PreparationStatus } from './schemas.ts';
import { WAITING_MESSAGE } from '../../domain/retry-policy.ts';

/** The `cards` columns every view is built from. */
const CARD_COLUMN_LIST = `c.id, c.text, c.enrichment_status, c.enrichment, c.enrichment_error, c.waiting_since, c.created_at, c.met_count, c.last_met_at`;
const CARD_COLUMNS = sql.raw(CARD_COLUMN_LIST);

interface CardRow {
  id: string;
  text: string;
  enrichment_status: PreparationStatus;
  enrichment: CardPreparation | null;
  enrichment_error: PreparationError | null;
  waiting_since: Date | null;
  created_at: Date;
  met_count: number;
  last_met_at: Date | null;
}

interface CardDetailRow extends CardRow {
  state: SchedulingStateName;
  due: Date;
  reps: number;
  lapses: number;
  stability: number;
  last_review: Date | null;
  prepared_context_id: string | null;
  prepared_by_model: string | null;
}

function toCard(row: CardRow): Card {
  return {
    cardId: row.id,
    text: row.text,
    enrichmentStatus: row.enrichment_status,
    createdAt: new Date(row.created_at).toISOString(),
    enrichment: row.enrichment_status === 'ready' ? row.enrichment : null,
    ...(row.enrichment_status === 'failed' && row.enrichment_error ? { enrichmentError: row.enrichment_error } : {}),
    ...(row.enrichment_status === 'pending' && row.waiting_since
      ? { enrichmentWaiting: { code: 'service_unavailable', message: WAITING_MESSAGE, since: new Date(row.waiting_since).toISOString() } }
      : {}),
    metCount: row.met_count,
    lastMetAt: row.last_met_at ? new Date(row.last_met_at).toISOString() : null,
  };
}

/** The user's card, or null when it does not exist or belongs to someone else. */
async function findCardForUser(em: Em, userId: string, cardId: string): Promise<CardDetail | null> {
  const row = await firstRow<CardDetailRow>(
    em,
    sql`SELECT ${CARD_COLUMNS}, s.state, s.due, s.reps, s.lapses, s.stability, s.last_review, c.prepared_context_id, c.prepared_by_model
     FROM cards c JOIN card_schedules s ON s.card_id = c.id
     WHERE c.id = ${cardId} AND c.user_id = ${userId}`,
  );
  if (!row) return null;
  return {
    ...toCard(row),
    scheduling: {
      state: row.state,
      due: new Date(row.due).toISOString(),
      reps: row.reps,
      lapses: row.lapses,
      stability: row.stability,
      lastReview: row.last_review ? new Date(row.last_review).toISOString() : null,
    },
    contexts: await contextsOfCard(em, cardId),
    preparedContextId: row.prepared_context_id,
    // The model of the preparation shown: none while the card is pending or failed (or was prepared before models were recorded).
    preparedByModel: row.enrichment_status === 'ready' ? row.prepared_by_model : null,
    encounters: (await encountersOfCard(em, cardId)).map((d) => d.toISOString()),
  };
}

/** The user's card with its scheduling; 404 when missing or another user's. */
export async function getCardForUser(ctx: FeatureContext, userId: string, cardId: string): Promise<CardDetail> {
  const card = await findCardForUser(ctx.em, userId, cardId);
  if (!card) throw new AppError('not_found', 'No such card in your library.');
  return card;
}

const captures = counter('lcs_captures_total', 'Captures saved, by whether they made a new card or found the existing one', ['result']);

export interface CaptureResult {
  card: Card;
  reused: boolean;
  /** The context stored with the capture, when one was sent (on a reused card too: free, no preparation). */
  context?: CardContextView;
}

export interface CaptureOptions {
  /** The sentence the expression was met in: ≤ CONTEXT_MAX characters, containing the expression (else 400). */
  context?: string | null | undefined;
  /** Where the context was met (an http(s) address): kept with it; only with a context (else 400). */
  sourceUrl?: string | null | undefined;
  now?: Date;
}

/**
 * Saves a capture. A new expression becomes a card, its scheduling state (due now: it is in the
 * learning queue at once) and an outbox row for its preparation, all in one transaction; the
 * preparation workflow is started by the worker's outbox relay, woken after the commit. The same
 * expression again (normaliseExpression) returns the existing card: the unique index on
 * (user_id, normalised_key) and INSERT … ON CONFLICT make that hold under concurrent captures.
 *
 * With a `context` (the sentence the expression was met in), a new card keeps it and is prepared
 * for the sense it uses; a known card gets it added as one more of the learner's examples, free and
 * without preparing again (the learner may ask for that sense: prepareSense).
 */
export async function captureCard(ctx: FeatureContext, userId: string, rawText: string, options: CaptureOptions = {}): Promise<CaptureResult> {
  const { em, workflows } = ctx;
  const now = options.now ?? new Date();
  const text = cleanCaptureText(rawText);
  const key = normaliseExpression(text);
  if (options.context !== undefined && options.context !== null)
    return captureInContext(ctx, userId, text, key, { placed: placedOrRefused(options.context, [text]), sourceUrl: options.sourceUrl ?? null }, now);
  if (options.sourceUrl)
    throw new AppError('invalid_request', 'Invalid sourceUrl: it is where the context was met, so it needs a context.', {
      errors: [{ path: 'sourceUrl', message: 'needs a context' }],
    });
  // A card deleted between our conflicting insert and our read leaves nothing to reuse: try again.
  for (let round = 0; round < 3; round++) {
    const created = await insertCard(em, workflows, userId, text, key, now, ctx.config.library.maxCards);
    if (created) {
      workflows.wakeRelay();
      captures.inc({ result: 'new' });
      return { card: toCard(created), reused: false };
    }
    // READ COMMITTED: this statement sees the row the conflicting transaction committed.
    const existing = await firstRow<CardRow>(em, sql`SELECT ${CARD_COLUMNS} FROM cards c WHERE c.user_id = ${userId} AND c.normalised_key = ${key}`);
    if (existing) {
      captures.inc({ result: 'existing' });
      return { card: toCard(existing), reused: true };
    }
    await refuseWhenFull(em, userId, ctx.config.library.maxCards);
  }
  throw new AppError('conflict', 'This expression was captured and deleted at the same moment; send it again.');
}

/**
 * A capture with its sentence, in one transaction: a new card with its context (the one its
 * preparation will use), or the known card, locked, with the context added.
 */
async function captureInContext(
  ctx: FeatureContext,
  userId: string,
  text: string,
  key: string,
  { placed, sourceUrl }: { placed: PlacedContext; sourceUrl: string | null },
  now: Date,
): Promise<CaptureResult> {
  const { em, workflows } = ctx;
  for (let round = 0; round < 3; round++) {
    const result = await em.transactional(async (tx): Promise<CaptureResult | null> => {
      const created = await insertCard(tx, workflows, userId, text, key, now, ctx.config.library.maxCards);
      if (created) {
        const context = await addContext(tx, { cardId: created.id, userId }, placed, now, sourceUrl);
        await run(tx, sql`UPDATE cards SET prepared_context_id = ${context.contextId} WHERE id = ${created.id}`);
        return { card: toCard(created), reused: false, context };
      }
      const existing = await firstRow<CardRow>(
        tx,
        sql`SELECT ${CARD_COLUMNS} FROM cards c WHERE c.user_id = ${userId} AND c.normalised_key = ${key} FOR UPDATE`,
      );
      if (!existing) {
        await refuseWhenFull(tx, userId, ctx.config.library.maxCards);
        return null;
      }
      return { card: toCard(existing), reused: true, context: await addContext(tx, { cardId: existing.id, userId }, placed, now, sourceUrl) };
    });
    if (!result) continue;
    if (!result.reused) workflows.wakeRelay();
    captures.inc({ result: result.reused ? 'existing' : 'new' });
    return result;
  }
  throw new AppError('conflict', 'This expression was captured and deleted at the same moment; send it again.');
}

/** The cards a library may hold, per plan (config `library.maxCards`). */
type MaxCards = Record<Plan, number>;

/**
 * Prepared (src/db/sql.ts): every capture runs it. The learner's row is locked first, so that
 * captures and imports of one learner count their cards one after another: a library never
 * passes its plan's size (the count is kept by triggers on `cards`, migration 0025).
 */
const cardCapture = preparedStatement(
  'card_capture',
  (card: { id: string; userId: string; text: string; key: string; now: Date; maxCards: MaxCards }, start: WorkflowStart) => {
    const { id: cardId, userId, text, key, now, maxCards } = card;
    const s = newSchedulingState(now);
    return sql<CardRow>`WITH room AS (
       SELECT u.card_count < CASE u.plan WHEN 'paid' THEN ${maxCards.paid}::int ELSE ${maxCards.free}::int END AS fits
       FROM users u WHERE u.id = ${userId} FOR NO KEY UPDATE
     ), c AS (
       INSERT INTO cards (id, user_id, text, normalised_key, created_at, updated_at)
       SELECT ${cardId}, ${userId}, ${text}, ${key}, ${now}, ${now} FROM room WHERE room.fits
       ON CONFLICT (user_id, normalised_key) DO NOTHING RETURNING ${sql.raw(CARD_COLUMN_LIST.replaceAll('c.', ''))}
     ), schedule AS (
       INSERT INTO card_schedules (card_id, user_id, due, stability, difficulty, elapsed_days, scheduled_days, learning_steps, reps, lapses, state, last_review)
       SELECT id, ${userId}, ${s.due}, ${s.stability}, ${s.difficulty}, ${s.elapsedDays}, ${s.scheduledDays}, ${s.learningSteps},
       ${s.reps}, ${s.lapses}, ${s.state}, ${s.lastReview} FROM c
     ), outbox AS (
       ${enqueueFrom(start, sql`c`)}
     )
     SELECT ${CARD_COLUMNS} FROM c`;
  },
);

/**
 * The card, its scheduling state and its outbox row (enqueueFrom, the row a starter's `enqueue`
 * writes) in one statement: atomic like a transaction, in one round trip instead of five, which is
 * most of a capture's cost. Nothing is inserted when the expression exists already (null then).
 */
async function insertCard(
  em: Em,
  workflows: WorkflowStarter,
  userId: string,
  text: string,
  key: string,
  now: Date,
  maxCards: MaxCards,
): Promise<CardRow | null> {
  const cardId = randomUUID();
  const start = preparationStart(workflows, userId, cardId, 1);
  const row = await firstRow(em, cardCapture({ id: cardId, userId, text, key, now, maxCards }, start));
  return row ?? null;
}

/** 409 library_full when the learner's library holds as many cards as their plan allows (after an insert that made none and found none to reuse). */
async function refuseWhenFull(em: Em, userId: string, maxCards: MaxCards): Promise<void> {
  const user = await firstRow<{ card_count: number; plan: Plan }>(em, sql`SELECT card_count, plan FROM users WHERE id = ${userId}`);
  if (user && user.card_count >= maxCards[user.plan]) throw libraryFull(maxCards[user.plan], user.card_count);
}

export interface ListOptions {
  query?: string | undefined;
  cursor?: ListCursor | null | undefined;
  limit: number;
  /** `met`: most often met first (then newest); the cursor's card gives its place by its current count. */
  sort?: 'newest' | 'met' | undefined;
}

/**
 * A card of `c` whose text or translation contains `query`, case- and accent-insensitively.
 * The left side is the expression of the index cards_user_search_idx (after the user's id, which
 * every search has beside it: ofUser), so the index serves it; the
 * pattern escapes LIKE's wildcards after folding (migration 0011). Never a prepared statement
 * (src/db/sql.ts): how many cards a word matches decides between that index and the newest-first
 * one, so a search is planned for each query.
 */
export const librarySearchCondition = (query: string): Sql =>
  sql`library_fold(c.text || ' ' || coalesce(c.enrichment ->> 'translation', '')) LIKE library_contains_pattern(${query})`;

const listing = (where: Sql[], limit: number, order = sql`c.created_at DESC, c.id DESC`) =>
  sql<CardRow>`SELECT ${CARD_COLUMNS} FROM cards c WHERE ${sql.join(where, sql` AND `)} ORDER BY ${order} LIMIT ${limit}`;
const MOST_MET = sql`c.met_count DESC, c.created_at DESC, c.id DESC`;
/** After the cursor's card in the `met` order, placed by its count now (0 if it is gone meanwhile). */
const afterMetCursor = (userId: string, cursor: ListCursor) =>
  sql`(c.met_count, c.created_at, c.id) < (coalesce((SELECT m.met_count FROM cards m WHERE m.id = ${cursor.cardId} AND m.user_id = ${userId}), 0),
    ${cursor.createdAt}::timestamptz, ${cursor.cardId}::uuid)`;
const ofUser = (userId: string) => sql`c.user_id = ${userId}`;
const afterCursor = (cursor: ListCursor) => sql`(c.created_at, c.id) < (${cursor.createdAt}::timestamptz, ${cursor.cardId}::uuid)`;

/** Prepared (src/db/sql.ts): every page of the library without a search runs one of them. */
const firstPage = preparedStatement('card_list', (userId: string, limit: number) => listing([ofUser(userId)], limit));
const pageAfter = preparedStatement('card_list_after', (userId: string, cursor: ListCursor, limit: number) =>
  listing([ofUser(userId), afterCursor(cursor)], limit),
);

/** Newest first, keyset-paginated; `query` matches text and translation (trigram index). */
export async function listCards(ctx: FeatureContext, userId: string, options: ListOptions): Promise<{ items: Card[]; nextCursor: string | null }> {
  const query = options.query?.trim();
  const limit = options.limit + 1;
  const rows = await allRows(
    ctx.em,
    options.sort === 'met'
      ? listing(
          [ofUser(userId), ...(options.cursor ? [afterMetCursor(userId, options.cursor)] : []), ...(query ? [librarySearchCondition(query)] : [])],
          limit,
          MOST_MET,
        )
      : query
        ? listing([ofUser(userId), ...(options.cursor ? [afterCursor(options.cursor)] : []), librarySearchCondition(query)], limit)
        : options.cursor
          ? pageAfter(userId, options.cursor, limit)
          : firstPage(userId, limit),
  );
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    items: page.map(toCard),
    nextCursor: rows.length > options.limit && last ? encodeCursor({ createdAt: new Date(last.created_at), cardId: last.id }) : null,
  };
}

/**
 * Prepares a failed card again: same card, next attempt number, same workflow id (a new run).
 * Scheduling and review history are not touched.
 */
export async function retryPreparation(ctx: FeatureContext, userId: string, cardId: string): Promise<Card> {
  const { em, workflows } = ctx;
  assertRetriable(await getCardForUser(ctx, userId, cardId));
  // The failed run may still be closing; the outbox starts the new run once it has closed.
  const card = await em.transactional(async (tx) => {
    const locked = await firstRow<CardRow>(tx, sql`SELECT ${CARD_COLUMNS} FROM cards c WHERE c.id = ${cardId} AND c.user_id = ${userId} FOR UPDATE`);
    if (!locked) throw new AppError('not_found', 'No such card in your library.');
    assertRetriable(toCard(locked));
    const updated = await firstRow<CardRow & { enrichment_attempt: number; sense_attempt: number | null }>(
      tx,
      sql`UPDATE cards c SET enrichment_status = 'pending', enrichment_error = NULL, enrichment = NULL, waiting_since = NULL,
         enrichment_attempt = enrichment_attempt + 1, updated_at = now()
       WHERE c.id = ${cardId} RETURNING ${CARD_COLUMNS}, c.enrichment_attempt, c.sense_attempt`,
    );
    await workflows.enqueue(tx, preparationStart(workflows, userId, cardId, updated!.enrichment_attempt, updated!.sense_attempt));
    return toCard(updated!);
  });
  workflows.wakeRelay();
  return card;
}

/**
 * "Prepare this sense": prepares a ready card again for one of its contexts, the learner's choice
 * when a sentence they met it in uses another sense than the one the card explains. Charged like
 * any preparation (a new attempt, keyed by it). The card is pending meanwhile, as on a retry;
 * scheduling and review history are not touched. Being asked for by the learner on a card that was
 * prepared successfully, it starts the card's model-call budget afresh.
 */
export async function prepareSense(ctx: FeatureContext, userId: string, cardId: string, contextId: string): Promise<Card> {
  return prepareReadyCardAgain(ctx, userId, cardId, async (tx, locked) => {
    const context = await firstRow(tx, sql`SELECT 1 FROM card_contexts WHERE id = ${contextId} AND card_id = ${cardId}`);
    if (!context)
      throw new AppError('conflict', 'That sentence is not one of this card’s contexts (contexts[].contextId); it may have been dropped past the limit.');
    if (locked.enrichment_status !== 'ready') {
      throw new AppError('conflict', `Only a ready card can be prepared for another sense; this card is ${locked.enrichment_status}.`);
    }
    if (locked.prepared_context_id === contextId) throw new AppError('conflict', 'The card is already prepared for the sense of this context.');
    return contextId;
  });
}

/**
 * "Prepare again": prepares a ready card again with the deployment's current model (a card records
 * the model that prepared it: `preparedByModel`), for the same context if it had one. Charged like
 * any preparation, pending meanwhile, scheduling and review history untouched; like "prepare this
 * sense", the learner's own request on a card that was prepared starts its model-call budget afresh.
 */
export async function prepareAgain(ctx: FeatureContext, userId: string, cardId: string): Promise<Card> {
  return prepareReadyCardAgain(ctx, userId, cardId, async (_tx, locked) => {
    if (locked.enrichment_status !== 'ready') {
      throw new AppError('conflict', `Only a ready card can be prepared again; this card is ${locked.enrichment_status} (a failed one is retried).`);
    }
    return locked.prepared_context_id;
  });
}

/**
 * A new attempt for a ready card, under a workflow id of its own (`sense_attempt`: a completed id
 * is never started again), after `check` (in the transaction, the card locked) said which context
 * it is prepared for.
 */
async function prepareReadyCardAgain(
  ctx: FeatureContext,
  userId: string,
  cardId: string,
  check: (tx: Em, locked: CardRow & { prepared_context_id: string | null }) => Promise<string | null>,
): Promise<Card> {
  const { em, workflows } = ctx;
  const card = await em.transactional(async (tx) => {
    const locked = await firstRow<CardRow & { prepared_context_id: string | null }>(
      tx,
      sql`SELECT ${CARD_COLUMNS}, c.prepared_context_id FROM cards c WHERE c.id = ${cardId} AND c.user_id = ${userId} FOR UPDATE`,
    );
    if (!locked) throw new AppError('not_found', 'No such card in your library.');
    const contextId = await check(tx, locked);
    const updated = await firstRow<CardRow & { enrichment_attempt: number }>(
      tx,
      sql`UPDATE cards c SET enrichment_status = 'pending', enrichment_error = NULL, prepared_context_id = ${contextId}, preparation_calls = 0,
         enrichment_attempt = enrichment_attempt + 1, sense_attempt = enrichment_attempt + 1, updated_at = now()
       WHERE c.id = ${cardId} RETURNING ${CARD_COLUMNS}, c.enrichment_attempt`,
    );
    const attempt = updated!.enrichment_attempt;
    await workflows.enqueue(tx, preparationStart(workflows, userId, cardId, attempt, attempt));
    return toCard(updated!);
  });
  workflows.wakeRelay();
  return card;
}

function assertRetriable(card: Card): void {
  if (card.enrichmentStatus !== 'failed') {
    throw new AppError('conflict', `Only a failed preparation can be refreshed; this card is ${card.enrichmentStatus}.`);
  }
}

/**
 * Removes the card and, by cascade, all of its learning data. An undispatched preparation start
 * is dropped in the same transaction; a running one is cancelled after the commit. Whatever
 * still runs cannot bring the card back: preparation stores only into an existing card.
 */
export async function deleteCard(ctx: FeatureContext, userId: string, cardId: string): Promise<void> {
  const { em, workflows } = ctx;
  const deleted = await em.transactional(async (tx) => {
    const row = await firstRow<{ enrichment_status: PreparationStatus; sense_attempt: number | null }>(
      tx,
      sql`DELETE FROM cards WHERE id = ${cardId} AND user_id = ${userId} RETURNING enrichment_status, sense_attempt`,
    );
    if (row) await workflows.discardPending(tx, preparationWorkflowId(cardId, row.sense_attempt));
    return row;
  });
  if (!deleted) throw new AppError('not_found', 'No such card in your library.');
  // The card is already gone and preparation only stores into an existing card, so a missed
  // cancellation costs one model call, never a resurrected card.
  if (deleted.enrichment_status === 'pending') await workflows.cancel(preparationWorkflowId(cardId, deleted.sense_attempt), ctx.log);
}
