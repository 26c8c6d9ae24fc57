/**
 * An Anki card's reviews replayed through our FSRS (issue 33), pure: each answer at the time it was
 * made, under the learner's desired retention and weights, gives the review log's rows and the
 * schedule the card ends with, so its due date carries over from the history Anki kept.
 */
import type { ImportHistory } from '../../../domain/imports.ts';
import { newSchedulingState, review, type LearnerScheduling, type ReviewLogRecord, type SchedulingState } from '../../../domain/scheduling.ts';

export interface ReplayedHistory {
  logs: (ReviewLogRecord & { ankiReviewId: number })[];
  schedule: SchedulingState;
}

const DAY_MS = 86_400_000;

/**
 * Anki's ease (1 again … 4 easy) is FSRS's rating. Reviews out of order are taken in time order.
 * A card Anki had buried is due a day after `now` (the import) at the earliest: buried is "not today".
 */
export function replayHistory(history: ImportHistory, learner: LearnerScheduling, now?: Date): ReplayedHistory | null {
  const reviews = history.reviews.filter(([, at, ease]) => Number.isFinite(at) && ease >= 1 && ease <= 4).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  if (reviews.length === 0) return null;
  let schedule = newSchedulingState(new Date(reviews[0]![1]));
  const logs: ReplayedHistory['logs'] = [];
  for (const [id, at, ease] of reviews) {
    const { next, log } = review(schedule, ease, new Date(at), learner);
    logs.push({ ...log, ankiReviewId: id });
    schedule = next;
  }
  if (history.buried && now && schedule.due.getTime() < now.getTime() + DAY_MS) schedule = { ...schedule, due: new Date(now.getTime() + DAY_MS) };
  return { logs, schedule };
}
