import { describe, expect, it } from 'vitest';
import {
  beats,
  judgeable,
  longTermReviewCount,
  optimisationKey,
  splitHeldOut,
  trainable,
  trainingItems,
  type LoggedReview,
} from '../../../../src/features/replay/optimisation-rules.ts';

const at = (iso: string) => new Date(iso);

describe('trainingItems', () => {
  const log: LoggedReview[] = [
    // Out of order on purpose: a card's reviews are ordered by time, not by the log's order.
    { cardId: 'a', rating: 'good', reviewedAt: at('2026-01-03T08:00:00Z') },
    { cardId: 'a', rating: 'again', reviewedAt: at('2026-01-01T23:50:00Z') },
    { cardId: 'b', rating: 'easy', reviewedAt: at('2026-01-01T10:00:00Z') },
    { cardId: 'a', rating: 'hard', reviewedAt: at('2026-01-02T00:10:00Z') },
  ];

  it('gives one item per review after a card’s first, with every review up to it, days counted in UTC calendar days', () => {
    expect(trainingItems(log)).toEqual([
      {
        reviews: [
          { rating: 1, deltaT: 0 },
          { rating: 2, deltaT: 1 },
        ],
        reviewedAt: at('2026-01-02T00:10:00Z'),
      },
      {
        reviews: [
          { rating: 1, deltaT: 0 },
          { rating: 2, deltaT: 1 },
          { rating: 3, deltaT: 1 },
        ],
        reviewedAt: at('2026-01-03T08:00:00Z'),
      },
    ]);
  });

  it('counts as long-term only reviews a day or more after the previous one', () => {
    const sameDay: LoggedReview[] = [
      { cardId: 'c', rating: 'again', reviewedAt: at('2026-01-01T08:00:00Z') },
      { cardId: 'c', rating: 'good', reviewedAt: at('2026-01-01T08:10:00Z') },
      { cardId: 'c', rating: 'good', reviewedAt: at('2026-01-04T08:10:00Z') },
    ];
    expect(longTermReviewCount(trainingItems(sameDay))).toBe(1);
    expect(longTermReviewCount(trainingItems(log))).toBe(2);
  });
});

describe('judgeable', () => {
  it('is an item with a review on an earlier day before the predicted one', () => {
    const [second, third] = trainingItems([
      { cardId: 'a', rating: 'good', reviewedAt: at('2026-01-01T08:00:00Z') },
      { cardId: 'a', rating: 'good', reviewedAt: at('2026-01-03T08:00:00Z') },
      { cardId: 'a', rating: 'good', reviewedAt: at('2026-01-09T08:00:00Z') },
    ]);
    expect(judgeable(second!)).toBe(false);
    expect(judgeable(third!)).toBe(true);
  });
});

describe('trainable', () => {
  it('refuses an item of same-day reviews only (fsrs-rs aborts the process on one)', () => {
    const items = trainingItems([
      { cardId: 'a', rating: 'again', reviewedAt: at('2026-01-01T08:00:00Z') },
      { cardId: 'a', rating: 'good', reviewedAt: at('2026-01-01T08:01:00Z') },
      { cardId: 'a', rating: 'good', reviewedAt: at('2026-01-01T08:11:00Z') },
      { cardId: 'a', rating: 'good', reviewedAt: at('2026-01-02T08:11:00Z') },
      { cardId: 'a', rating: 'good', reviewedAt: at('2026-01-02T08:20:00Z') },
    ]);
    expect(items.map(trainable)).toEqual([false, false, true, true]);
  });
});

describe('splitHeldOut', () => {
  const items = Array.from({ length: 10 }, (_, i) => ({ reviewedAt: new Date(Date.UTC(2026, 0, 10 - i)), i }));

  it('holds out the most recent fifth, training on everything before it', () => {
    const { train, heldOut } = splitHeldOut(items);
    expect(heldOut.map((x) => x.i)).toEqual([1, 0]);
    expect(train).toHaveLength(8);
    expect(Math.max(...train.map((x) => x.reviewedAt.getTime()))).toBeLessThan(Math.min(...heldOut.map((x) => x.reviewedAt.getTime())));
  });

  it('keeps reviews made at the same moment on one side', () => {
    const tied = [...items.slice(2), { reviewedAt: items[1]!.reviewedAt, i: 99 }, items[0]!, items[1]!];
    const { train, heldOut } = splitHeldOut(tied);
    expect(train.every((x) => x.reviewedAt < items[1]!.reviewedAt)).toBe(true);
    expect(heldOut.map((x) => x.i).sort()).toEqual([0, 1, 99]);
  });
});

describe('beats', () => {
  it('needs a lower log loss and no worse RMSE', () => {
    expect(beats({ logLoss: 0.32, rmse: 0.1 }, { logLoss: 0.33, rmse: 0.1 })).toBe(true);
    expect(beats({ logLoss: 0.32, rmse: 0.11 }, { logLoss: 0.33, rmse: 0.1 })).toBe(false);
    expect(beats({ logLoss: 0.33, rmse: 0.09 }, { logLoss: 0.33, rmse: 0.1 })).toBe(false);
  });
});

describe('optimisationKey', () => {
  it('names the log by its size and latest review, so an unchanged log is one unit of work', () => {
    expect(optimisationKey('u', 5, at('2026-01-01T00:00:00Z'))).toBe(optimisationKey('u', 5, at('2026-01-01T00:00:00Z')));
    expect(optimisationKey('u', 6, at('2026-01-01T00:00:00Z'))).not.toBe(optimisationKey('u', 5, at('2026-01-01T00:00:00Z')));
    expect(optimisationKey('u', 0, null)).toBe('u/0-0');
  });
});
