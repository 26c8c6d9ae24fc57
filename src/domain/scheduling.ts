/**
 * Spaced-repetition scheduling. The only module that talks to ts-fsrs: the rest of the service
 * sees plain camelCase records with string states, so storage and API never depend on the
 * library's enums or snake_case fields.
 */
import {
  type Card,
  type FSRS,
  type FSRSParameters,
  type Grade,
  type Rating,
  type ReviewLog,
  Grades,
  State,
  dateDiffInDays,
  fsrs,
  generatorParameters,
} from 'ts-fsrs';
import { type RatingName, ratingName } from './replay-rating.ts';

export type SchedulingStateName = 'new' | 'learning' | 'review' | 'relearning';

export interface SchedulingState {
  due: Date;
  stability: number;
  difficulty: number;
  /** Whole UTC calendar days between the two latest reviews (0 before the second review). */
  elapsedDays: number;
  scheduledDays: number;
  learningSteps: number;
  reps: number;
  lapses: number;
  state: SchedulingStateName;
  lastReview: Date | null;
}

/** One review as it happened; `state`, `stability`, `difficulty` and `learningSteps` are from before it. */
export interface ReviewLogRecord {
  rating: RatingName;
  state: SchedulingStateName;
  /** ts-fsrs convention: the card's previous review time, or its due date if never reviewed. */
  due: Date;
  stability: number;
  difficulty: number;
  elapsedDays: number;
  lastElapsedDays: number;
  scheduledDays: number;
  learningSteps: number;
  review: Date;
}

/** Desired retention: the recall probability at which a card falls due. A learner chooses it in this range. */
export const DEFAULT_DESIRED_RETENTION = 0.9;
export const MIN_DESIRED_RETENTION = 0.8;
export const MAX_DESIRED_RETENTION = 0.97;

/** What a learner's schedule depends on besides their cards: their desired retention and FSRS weights. */
export interface LearnerScheduling {
  desiredRetention: number;
  /** The learner's own fitted FSRS weights; null for ts-fsrs' defaults. */
  weights: readonly number[] | null;
}

const DEFAULT_LEARNER_SCHEDULING: Readonly<LearnerScheduling> = Object.freeze({ desiredRetention: DEFAULT_DESIRED_RETENTION, weights: null });

/**
 * FSRS parameters for a learner: library defaults (learning steps 1m/10m, relearning step 10m)
 * with their desired retention and weights, and interval fuzz off, so a review's outcome depends
 * only on the card, the learner's settings and the review time — replays and tests are reproducible.
 */
export function fsrsParameters(learner: LearnerScheduling): FSRSParameters {
  const r = learner.desiredRetention;
  if (!(r >= MIN_DESIRED_RETENTION && r <= MAX_DESIRED_RETENTION)) {
    throw new RangeError(`desiredRetention must be in [${MIN_DESIRED_RETENTION}, ${MAX_DESIRED_RETENTION}], got ${r}`);
  }
  return generatorParameters({ enable_fuzz: false, request_retention: r, ...(learner.weights ? { w: [...learner.weights] } : {}) });
}

/** The parameters of a learner who changed nothing. */
export const FSRS_PARAMETERS: Readonly<FSRSParameters> = Object.freeze(fsrsParameters(DEFAULT_LEARNER_SCHEDULING));

const schedulers = new Map<string, FSRS>();
function schedulerFor(learner: LearnerScheduling): FSRS {
  const key = `${learner.desiredRetention}|${learner.weights?.join(',') ?? ''}`;
  let s = schedulers.get(key);
  if (!s) {
    if (schedulers.size > 1000) schedulers.clear(); // bounded: one entry per distinct setting in use
    s = fsrs(fsrsParameters(learner));
    schedulers.set(key, s);
  }
  return s;
}

const STATE_NAMES: Record<State, SchedulingStateName> = {
  [State.New]: 'new',
  [State.Learning]: 'learning',
  [State.Review]: 'review',
  [State.Relearning]: 'relearning',
};
const STATES: Record<SchedulingStateName, State> = {
  new: State.New,
  learning: State.Learning,
  review: State.Review,
  relearning: State.Relearning,
};

/** A card that has never been reviewed, due immediately. */
export function newSchedulingState(now: Date): SchedulingState {
  assertValidDate(now, 'now');
  return {
    due: new Date(now),
    stability: 0,
    difficulty: 0,
    elapsedDays: 0,
    scheduledDays: 0,
    learningSteps: 0,
    reps: 0,
    lapses: 0,
    state: 'new',
    lastReview: null,
  };
}

/**
 * Applies one review under the learner's desired retention and weights. `rating` must be Again, Hard, Good or Easy (RangeError otherwise).
 * A `now` earlier than `state.lastReview` (clock skew between instances) is treated as a review
 * at `lastReview`, so time never runs backwards for a card.
 */
export function review(
  state: SchedulingState,
  rating: Rating,
  now: Date,
  learner: LearnerScheduling = DEFAULT_LEARNER_SCHEDULING,
): { next: SchedulingState; log: ReviewLogRecord } {
  assertValidDate(now, 'now');
  if (!Grades.includes(rating as Grade)) {
    throw new RangeError(`rating must be Again, Hard, Good or Easy, got ${String(rating)}`);
  }
  const at = state.lastReview && now < state.lastReview ? new Date(state.lastReview) : new Date(now);
  // Computed here rather than read back from ts-fsrs: its elapsed_days fields are deprecated
  // (removed in ts-fsrs 6). Same rule as the library: UTC calendar days, 0 for a new card.
  const elapsedDays = state.state !== 'new' && state.lastReview ? dateDiffInDays(state.lastReview, at) : 0;

  const { card, log } = schedulerFor(learner).next(toFsrsCard(state), at, rating as Grade);
  return {
    next: { ...fromFsrsCard(card), elapsedDays },
    log: fromFsrsLog(log, elapsedDays, state.elapsedDays),
  };
}

/** @internal Exported for tests: our record → ts-fsrs Card. */
export function toFsrsCard(state: SchedulingState): Card {
  const card: Card = {
    due: new Date(state.due),
    stability: state.stability,
    difficulty: state.difficulty,
    elapsed_days: state.elapsedDays,
    scheduled_days: state.scheduledDays,
    learning_steps: state.learningSteps,
    reps: state.reps,
    lapses: state.lapses,
    state: STATES[state.state],
  };
  if (state.lastReview) card.last_review = new Date(state.lastReview);
  return card;
}

/** @internal Exported for tests: ts-fsrs Card → our record. */
export function fromFsrsCard(card: Card): SchedulingState {
  return {
    due: new Date(card.due),
    stability: card.stability,
    difficulty: card.difficulty,
    elapsedDays: card.elapsed_days ?? 0, // deprecated field; may be absent in later ts-fsrs
    scheduledDays: card.scheduled_days,
    learningSteps: card.learning_steps,
    reps: card.reps,
    lapses: card.lapses,
    state: STATE_NAMES[card.state],
    lastReview: card.last_review ? new Date(card.last_review) : null,
  };
}

function fromFsrsLog(log: ReviewLog, elapsedDays: number, lastElapsedDays: number): ReviewLogRecord {
  return {
    rating: ratingName(log.rating),
    state: STATE_NAMES[log.state],
    due: new Date(log.due),
    stability: log.stability,
    difficulty: log.difficulty,
    elapsedDays,
    lastElapsedDays,
    scheduledDays: log.scheduled_days,
    learningSteps: log.learning_steps,
    review: new Date(log.review),
  };
}

function assertValidDate(d: Date, name: string): void {
  if (!(d instanceof Date) || Number.isNaN(d.getTime())) throw new RangeError(`${name} must be a valid Date`);
}
