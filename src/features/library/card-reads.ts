import type { Em } from '../../db/orm.ts';
import { sql, allRows, firstRow, preparedStatement, type Sql } from '../../db/sql.ts';
import type { ReplayCandidate } from '../replay/session-plan.ts';
import type { SchedulingStateName } from '../../domain/scheduling.ts';

/**
 * What other features read of a user's cards (Replay, audio, work), so that none of them builds
 * SQL over the library's tables. Every read of "the English a card practises" goes through ANSWER.
 */

/** The corrected text when preparation corrected a surface error, else the text as captured. */
const ANSWER = sql`coalesce(c.enrichment ->> 'correctedText', c.text)`;

/** The English of one of the user's cards, or null when it is missing or another user's. */
export async function cardAnswer(em: Em, userId: string, cardId: string): Promise<string | null> {
  const card = await firstRow<{ answer: string }>(em, sql`SELECT ${ANSWER} AS answer FROM cards c WHERE c.id = ${cardId} AND c.user_id = ${userId}`);
  return card?.answer ?? null;
}

/** The user's newest ready cards, as the English they practise. */
export async function readyCardAnswers(em: Em, userId: string, limit: number): Promise<{ cardId: string; text: string }[]> {
  const rows = await allRows<{ id: string; answer: string }>(
    em,
    sql`SELECT c.id, ${ANSWER} AS answer FROM cards c
     WHERE c.user_id = ${userId} AND c.enrichment_status = 'ready' ORDER BY c.created_at DESC, c.id DESC LIMIT ${limit}`,
  );
  return rows.map((r) => ({ cardId: r.id, text: r.answer }));
}

interface CandidateRow {
  card_id: string;
  prompt: string;
  answer: string;
  state: SchedulingStateName;
  due: Date;
  stability: number;
  reps: number;
}

const practiceSelect = (userId: string) => sql`SELECT s.card_id, c.enrichment ->> 'translation' AS prompt, ${ANSWER} AS answer, s.state, s.due, s.stability,
  s.reps
    FROM card_schedules s JOIN cards c ON c.id = s.card_id
    WHERE s.user_id = ${userId} AND c.enrichment_status = 'ready'`;

/**
 * The candidates of a session: due reviewed cards, then new ones, each in (due, card_id) order and
 * read from an index of its own in that order (migration 0017).
 */
export const practiceCandidatesSql = (userId: string, now: Date, count: number): Sql<CandidateRow> =>
  sql`(${practiceSelect(userId)} AND s.state <> 'new' AND s.due <= ${now} ORDER BY s.due, s.card_id LIMIT ${count})
   UNION ALL
   (${practiceSelect(userId)} AND s.state = 'new' ORDER BY s.due, s.card_id LIMIT ${count})`;

/** Prepared (src/db/sql.ts): every Replay session opened runs it. */
const practiceCandidatesStatement = preparedStatement('practice_candidates', practiceCandidatesSql);

/** At most `count` due reviewed cards and `count` new ones, ready only, with their translation as the prompt. */
export async function practiceCandidates(em: Em, userId: string, count: number, now: Date): Promise<ReplayCandidate[]> {
  const rows = await allRows(em, practiceCandidatesStatement(userId, now, count));
  return rows.map((r) => ({
    cardId: r.card_id,
    prompt: r.prompt,
    answer: r.answer,
    isNew: r.state === 'new',
    due: new Date(r.due),
    stability: Number(r.stability),
    reps: r.reps,
  }));
}

export interface CardFeedback {
  answer: string;
  translation: string;
  usage: { register: string; guidance: string; examples: string[] };
}

/** Prepared (src/db/sql.ts): every Replay answer and session runs it. */
const feedbackOf = preparedStatement(
  'card_feedback',
  (cardIds: readonly string[]) =>
    sql<{ id: string } & CardFeedback>`SELECT c.id, ${ANSWER} AS answer, c.enrichment ->> 'translation' AS translation, c.enrichment -> 'usage' AS usage
     FROM cards c WHERE c.id = ANY(${cardIds}::uuid[])`,
);

/** The English practised, translation and usage of prepared cards, by card id (what Replay shows beside an item). */
export async function cardFeedback(em: Em, cardIds: readonly string[]): Promise<Map<string, CardFeedback>> {
  if (cardIds.length === 0) return new Map();
  const rows = await allRows(em, feedbackOf(cardIds));
  return new Map(rows.map(({ id, ...feedback }) => [id, feedback]));
}

/** What Replay shows of a card met in the wild: whether it was met since its last review, and its newest context. */
export interface CardInTheWild {
  metSinceReview: boolean;
  context: { contextId: string; text: string; start: number; end: number } | null;
}

/**
 * For each card: whether the learner met it on a page since its last review (ever, before its first
 * review), and its newest context. Replay builds a context cloze from it.
 */
export async function cardsInTheWild(em: Em, cardIds: readonly string[]): Promise<Map<string, CardInTheWild>> {
  if (cardIds.length === 0) return new Map();
  const rows = await allRows<{
    card_id: string;
    met: boolean;
    context_id: string | null;
    text: string | null;
    mark_start: number | null;
    mark_end: number | null;
  }>(
    em,
    sql`SELECT c.id AS card_id, coalesce(c.last_met_at > coalesce(s.last_review, '-infinity'), false) AS met,
       x.id AS context_id, x.text, x.mark_start, x.mark_end
     FROM cards c JOIN card_schedules s ON s.card_id = c.id
     LEFT JOIN LATERAL (SELECT id, text, mark_start, mark_end FROM card_contexts WHERE card_id = c.id ORDER BY created_at DESC, id DESC LIMIT 1) x ON true
     WHERE c.id = ANY(${cardIds}::uuid[])`,
  );
  return new Map(
    rows.map((r) => [
      r.card_id,
      {
        metSinceReview: r.met,
        context: r.context_id === null ? null : { contextId: r.context_id, text: r.text!, start: r.mark_start!, end: r.mark_end! },
      },
    ]),
  );
}

/** The text and marks of contexts by id (those still there): what a stored Replay item's cloze is built from. */
export async function contextsById(em: Em, contextIds: readonly string[]): Promise<Map<string, { text: string; start: number; end: number }>> {
  if (contextIds.length === 0) return new Map();
  const rows = await allRows<{ id: string; text: string; mark_start: number; mark_end: number }>(
    em,
    sql`SELECT id, text, mark_start, mark_end FROM card_contexts WHERE id = ANY(${contextIds}::uuid[])`,
  );
  return new Map(rows.map((r) => [r.id, { text: r.text, start: r.mark_start, end: r.mark_end }]));
}
