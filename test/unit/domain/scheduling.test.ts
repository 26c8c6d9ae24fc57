import fc from 'fast-check';
import { Rating, State, createEmptyCard, fsrs, generatorParameters } from 'ts-fsrs';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DESIRED_RETENTION,
  fsrsParameters,
  FSRS_PARAMETERS,
  type SchedulingState,
  fromFsrsCard,
  newSchedulingState,
  review,
  toFsrsCard,
} from '../../../src/domain/scheduling.ts';

const T0 = new Date('2025-03-01T09:00:00.000Z');
const MINUTE = 60_000;
const DAY = 86_400_000;
const at = (ms: number) => new Date(T0.getTime() + ms);
const GRADES = [Rating.Again, Rating.Hard, Rating.Good, Rating.Easy] as const;

/** A card graduated to review with a few successful reviews behind it. */
function reviewCard(): { state: SchedulingState; now: Date } {
  let state = newSchedulingState(T0);
  let now = T0;
  for (let i = 0; i < 4; i++) {
    state = review(state, Rating.Good, now).next;
    now = state.due;
  }
  expect(state.state).toBe('review');
  return { state, now };
}

describe('newSchedulingState', () => {
  it('is a new card due now', () => {
    const s = newSchedulingState(T0);
    expect(s).toEqual({
      due: T0,
      stability: 0,
      difficulty: 0,
      elapsedDays: 0,
      scheduledDays: 0,
      learningSteps: 0,
      reps: 0,
      lapses: 0,
      state: 'new',
      lastReview: null,
    });
    expect(s.due).not.toBe(T0); // a copy: mutating the caller's Date cannot move the card
  });

  it('matches ts-fsrs createEmptyCard', () => {
    expect(toFsrsCard(newSchedulingState(T0))).toEqual({ ...createEmptyCard(T0), last_review: undefined });
  });

  it('rejects an invalid date', () => {
    expect(() => newSchedulingState(new Date('nope'))).toThrow(RangeError);
  });
});

describe('review', () => {
  it('uses deterministic parameters (no fuzz)', () => {
    expect(FSRS_PARAMETERS.enable_fuzz).toBe(false);
    expect(Object.isFrozen(FSRS_PARAMETERS)).toBe(true);
  });

  it.each([
    ['a new card', () => ({ state: newSchedulingState(T0), now: T0 })],
    ['a review card', reviewCard],
  ])('on %s: easy is due later than good, good than hard, hard than again', (_name, make) => {
    const { state, now } = make();
    const [again, hard, good, easy] = GRADES.map((g) => review(state, g, now).next.due.getTime());
    expect(easy).toBeGreaterThan(good!);
    expect(good).toBeGreaterThan(hard!);
    expect(hard).toBeGreaterThan(again!);
    expect(again).toBeGreaterThan(now.getTime());
  });

  it('schedules a new card with the learning steps (1m, 10m) and graduates on easy', () => {
    const s = newSchedulingState(T0);
    expect(review(s, Rating.Again, T0).next.due).toEqual(at(MINUTE));
    expect(review(s, Rating.Good, T0).next.due).toEqual(at(10 * MINUTE));
    const easy = review(s, Rating.Easy, T0).next;
    expect(easy.state).toBe('review');
    expect(easy.scheduledDays).toBeGreaterThanOrEqual(1);
  });

  it.each(GRADES)('increments reps and records the review time (rating %d)', (g) => {
    const { state, now } = reviewCard();
    const { next } = review(state, g, now);
    expect(next.reps).toBe(state.reps + 1);
    expect(next.lastReview).toEqual(now);
    expect(review(newSchedulingState(T0), g, T0).next.reps).toBe(1);
  });

  it('counts a lapse when a review card is forgotten, and only then', () => {
    const { state, now } = reviewCard();
    const again = review(state, Rating.Again, now).next;
    expect(again.lapses).toBe(state.lapses + 1);
    expect(again.state).toBe('relearning');
    for (const g of [Rating.Hard, Rating.Good, Rating.Easy]) expect(review(state, g, now).next.lapses).toBe(state.lapses);
    expect(review(newSchedulingState(T0), Rating.Again, T0).next.lapses).toBe(0);
  });

  it('logs the review with the state from before it', () => {
    const { state, now } = reviewCard();
    const { log } = review(state, Rating.Hard, now);
    expect(log).toMatchObject({
      rating: 'hard',
      state: 'review',
      stability: state.stability,
      difficulty: state.difficulty,
      learningSteps: state.learningSteps,
      lastElapsedDays: state.elapsedDays,
      review: now,
    });
  });

  it('counts elapsed days in UTC calendar days between reviews', () => {
    const first = review(newSchedulingState(T0), Rating.Easy, T0).next;
    const later = at(3 * DAY + 2 * 3_600_000);
    const { next, log } = review(first, Rating.Good, later);
    expect(next.elapsedDays).toBe(3);
    expect(log.elapsedDays).toBe(3);
    expect(log.lastElapsedDays).toBe(0);
  });

  it('treats a review time before the last review as happening at the last review', () => {
    const { state } = reviewCard();
    const early = new Date(state.lastReview!.getTime() - 5 * MINUTE);
    const { next, log } = review(state, Rating.Good, early);
    expect(next.lastReview).toEqual(state.lastReview);
    expect(log.review).toEqual(state.lastReview);
    expect(next.elapsedDays).toBe(0);
  });

  it('rejects Manual, out-of-range ratings and invalid dates', () => {
    const s = newSchedulingState(T0);
    expect(() => review(s, Rating.Manual, T0)).toThrow(RangeError);
    expect(() => review(s, 5 as Rating, T0)).toThrow(RangeError);
    expect(() => review(s, Rating.Good, new Date(Number.NaN))).toThrow(RangeError);
  });

  it('does not mutate its input and is deterministic', () => {
    const { state, now } = reviewCard();
    const copy = structuredClone(state);
    const a = review(state, Rating.Good, now);
    const b = review(state, Rating.Good, now);
    expect(state).toEqual(copy);
    expect(a).toEqual(b);
    a.next.due.setTime(0);
    expect(b.next.due.getTime()).not.toBe(0);
  });
});

describe('mapping to and from ts-fsrs', () => {
  const dateArb = fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true });
  const stateArb: fc.Arbitrary<SchedulingState> = fc.record({
    due: dateArb,
    stability: fc.double({ min: 0, max: 36_500, noNaN: true }),
    difficulty: fc.double({ min: 0, max: 10, noNaN: true }),
    elapsedDays: fc.nat({ max: 36_500 }),
    scheduledDays: fc.nat({ max: 36_500 }),
    learningSteps: fc.nat({ max: 3 }),
    reps: fc.nat({ max: 10_000 }),
    lapses: fc.nat({ max: 10_000 }),
    state: fc.constantFrom('new', 'learning', 'review', 'relearning'),
    lastReview: fc.option(dateArb, { nil: null }),
  });

  it('round-trips every field', () => {
    fc.assert(
      fc.property(stateArb, (s) => {
        expect(fromFsrsCard(toFsrsCard(s))).toEqual(s);
      }),
      { numRuns: 1000 },
    );
  });

  it('maps the state names to the ts-fsrs enum', () => {
    const s = newSchedulingState(T0);
    expect(toFsrsCard({ ...s, state: 'new' }).state).toBe(State.New);
    expect(toFsrsCard({ ...s, state: 'learning' }).state).toBe(State.Learning);
    expect(toFsrsCard({ ...s, state: 'review' }).state).toBe(State.Review);
    expect(toFsrsCard({ ...s, state: 'relearning' }).state).toBe(State.Relearning);
  });

  it('gives the same schedule as ts-fsrs itself over any review history', () => {
    const reference = fsrs(generatorParameters({ enable_fuzz: false }));
    const stepArb = fc.record({ grade: fc.constantFrom(...GRADES), waitMinutes: fc.nat({ max: 60 * 24 * 90 }) });
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 15 }), (steps) => {
        let ours = newSchedulingState(T0);
        let theirs = createEmptyCard(T0);
        let now = T0;
        for (const { grade, waitMinutes } of steps) {
          now = new Date(now.getTime() + waitMinutes * MINUTE);
          const result = review(ours, grade, now);
          const expected = reference.next(theirs, now, grade);
          expect(result.next).toEqual(fromFsrsCard(expected.card));
          expect(result.log.elapsedDays).toBe(expected.log.elapsed_days);
          expect(result.log.lastElapsedDays).toBe(expected.log.last_elapsed_days);
          expect(result.log.due).toEqual(expected.log.due);
          expect(result.next.reps).toBe(ours.reps + 1);
          expect(result.next.lapses).toBeLessThanOrEqual(result.next.reps);
          expect(result.next.due.getTime()).toBeGreaterThan(now.getTime());
          ours = result.next;
          theirs = expected.card;
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('desired retention', () => {
  const reviewed = () =>
    review(
      review(newSchedulingState(new Date('2026-01-01T09:00:00Z')), Rating.Good, new Date('2026-01-01T09:00:00Z')).next,
      Rating.Good,
      new Date('2026-01-01T09:10:00Z'),
    ).next;

  it('accepts 0.80–0.97 and refuses anything else', () => {
    expect(fsrsParameters({ desiredRetention: 0.8, weights: null }).request_retention).toBe(0.8);
    expect(fsrsParameters({ desiredRetention: 0.97, weights: null }).request_retention).toBe(0.97);
    for (const r of [0.79, 0.971, Number.NaN]) expect(() => fsrsParameters({ desiredRetention: r, weights: null })).toThrow(RangeError);
  });

  it('schedules sooner for a higher desired retention, and the default is 0.9', () => {
    const at = new Date('2026-01-05T09:00:00Z');
    const due = (desiredRetention: number) => review(reviewed(), Rating.Good, at, { desiredRetention, weights: null }).next.due.getTime();
    expect(due(0.97)).toBeLessThan(due(0.9));
    expect(due(0.9)).toBeLessThan(due(0.8));
    expect(review(reviewed(), Rating.Good, at).next.due.getTime()).toBe(due(DEFAULT_DESIRED_RETENTION));
  });
});
