import { describe, expect, it } from 'vitest';
import { DEFAULT_DESIRED_RETENTION } from '../../../../../src/domain/scheduling.ts';
import { replayHistory } from '../../../../../src/features/library/imports/anki-history.ts';
import { importOutcome } from '../../../../../src/features/library/imports/progress-rules.ts';

const learner = { desiredRetention: DEFAULT_DESIRED_RETENTION, weights: null };
const DAY = 86_400_000;
const T0 = Date.UTC(2025, 2, 1, 8);

describe('replayHistory: an Anki card’s reviews through our FSRS', () => {
  it('keeps a card Anki had buried out of the day of the import: due a day after it at the earliest, its reviews as they were', () => {
    const reviews: [number, number, number][] = [[1, T0, 3]]; // a new card answered Good: due within the day (a learning step)
    const plain = replayHistory({ reviews }, learner)!;
    const importedAt = new Date(T0 + 60_000);
    expect(plain.schedule.due.getTime()).toBeLessThan(importedAt.getTime() + DAY);
    const buried = replayHistory({ reviews, buried: true }, learner, importedAt)!;
    expect(buried.schedule).toEqual({ ...plain.schedule, due: new Date(importedAt.getTime() + DAY) });
    expect(buried.logs).toEqual(plain.logs);
    // Already due later than that: its own due date stays.
    const later = replayHistory({ reviews, buried: true }, learner, new Date(T0 - 30 * DAY))!;
    expect(later.schedule.due).toEqual(plain.schedule.due);
  });

  it('takes the reviews in time order, one log each keeping Anki’s id, and ends with the schedule they give', () => {
    const replayed = replayHistory(
      {
        reviews: [
          [3, T0 + 10 * DAY, 3],
          [1, T0, 3],
          [2, T0 + 2 * DAY, 1],
        ],
      },
      learner,
    )!;
    expect(replayed.logs.map((l) => [l.ankiReviewId, l.rating, l.review.getTime()])).toEqual([
      [1, 'good', T0],
      [2, 'again', T0 + 2 * DAY],
      [3, 'good', T0 + 10 * DAY],
    ]);
    expect(replayed.schedule).toMatchObject({ reps: 3, lastReview: new Date(T0 + 10 * DAY) });
    expect(replayed.schedule.due.getTime()).toBeGreaterThan(T0 + 10 * DAY);
  });

  it('the learner’s parameters count: a lower desired retention gives the same history a later due date', () => {
    const reviews: [number, number, number][] = [
      [1, T0, 3],
      [2, T0 + 3 * DAY, 3],
      [3, T0 + 12 * DAY, 4],
    ];
    const at90 = replayHistory({ reviews }, learner)!.schedule.due.getTime();
    const at80 = replayHistory({ reviews }, { desiredRetention: 0.8, weights: null })!.schedule.due.getTime();
    expect(at80).toBeGreaterThan(at90);
  });

  it('leaves out what is not an answer, and is null when nothing is left', () => {
    expect(
      replayHistory(
        {
          reviews: [
            [1, T0, 0],
            [2, Number.NaN, 3],
            [3, T0, 5],
          ],
        },
        learner,
      ),
    ).toBeNull();
    expect(replayHistory({ reviews: [] }, learner)).toBeNull();
  });
});

describe('importOutcome with a history', () => {
  it('says how many cards came with how many reviews, and that due dates were kept', () => {
    const counts = { total: 2, saved: 2, reused: 0, prepared: 2, preparing: 0, waiting: 0, waitingForCredits: 0, failed: {}, removed: 0 };
    expect(importOutcome('completed', counts, null, { cards: 1234, reviews: 8765 })?.message).toBe(
      'All 2 new cards prepared. 1,234 cards with 8,765 reviews; due dates kept.',
    );
    expect(importOutcome('saving', counts, null, { cards: 1, reviews: 1 })).toBeNull();
  });
});
