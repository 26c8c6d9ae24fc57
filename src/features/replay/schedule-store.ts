import type { Em } from '../../db/orm.ts';
import { sql, firstRow, preparedStatement, run } from '../../db/sql.ts';
import type { SchedulingState, SchedulingStateName } from '../../domain/scheduling.ts';

/** The one place Replay reads and writes a card's FSRS schedule (card_schedules). */

interface ScheduleRow {
  due: Date;
  stability: number;
  difficulty: number;
  elapsed_days: number;
  scheduled_days: number;
  learning_steps: number;
  reps: number;
  lapses: number;
  state: SchedulingStateName;
  last_review: Date | null;
}

/** Prepared (src/db/sql.ts), like scheduleWrite: every Replay answer runs them. */
const scheduleLock = preparedStatement(
  'schedule_lock',
  (cardId: string) =>
    sql<ScheduleRow>`SELECT due, stability, difficulty, elapsed_days, scheduled_days, learning_steps, reps, lapses, state, last_review
     FROM card_schedules WHERE card_id = ${cardId} FOR UPDATE`,
);

const scheduleWrite = preparedStatement(
  'schedule_write',
  (cardId: string, s: SchedulingState) =>
    sql`UPDATE card_schedules SET due = ${s.due}, stability = ${s.stability}, difficulty = ${s.difficulty}, elapsed_days = ${s.elapsedDays},
       scheduled_days = ${s.scheduledDays}, learning_steps = ${s.learningSteps}, reps = ${s.reps}, lapses = ${s.lapses}, state = ${s.state},
       last_review = ${s.lastReview}, updated_at = now() WHERE card_id = ${cardId}`,
);

/** The card's schedule, locked for the rest of the transaction; null when the card is gone. */
export async function lockSchedule(tx: Em, cardId: string): Promise<SchedulingState | null> {
  const row = await firstRow(tx, scheduleLock(cardId));
  return row ? fromRow(row) : null;
}

export async function writeSchedule(tx: Em, cardId: string, s: SchedulingState): Promise<void> {
  await run(tx, scheduleWrite(cardId, s));
}

/**
 * A schedule as JSON for review_logs.previous_schedule: numbers as JavaScript prints them (shortest
 * round-trip form, which jsonb keeps digit for digit) and instants as ISO strings, so parsing it
 * back gives the very same state.
 */
export function scheduleToJson(s: SchedulingState): string {
  return JSON.stringify({ ...s, due: s.due.toISOString(), lastReview: s.lastReview?.toISOString() ?? null });
}

export function scheduleFromJson(json: Record<string, unknown>): SchedulingState {
  const s = json as unknown as Omit<SchedulingState, 'due' | 'lastReview'> & { due: string; lastReview: string | null };
  return { ...s, due: new Date(s.due), lastReview: s.lastReview === null ? null : new Date(s.lastReview) };
}

function fromRow(row: ScheduleRow): SchedulingState {
  return {
    due: new Date(row.due),
    stability: Number(row.stability),
    difficulty: Number(row.difficulty),
    elapsedDays: row.elapsed_days,
    scheduledDays: row.scheduled_days,
    learningSteps: row.learning_steps,
    reps: row.reps,
    lapses: row.lapses,
    state: row.state,
    lastReview: row.last_review ? new Date(row.last_review) : null,
  };
}
