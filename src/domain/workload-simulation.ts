/**
 * What a desired retention costs and keeps: a Monte Carlo simulation of a learner who adds a few
 * expressions a day for a year, with FSRS-6's memory model (the formulas of fsrs-rs's
 * `simulate`, whose binding we lack: neither `@open-spaced-repetition/binding` nor ts-fsrs
 * exports a simulator). Pure and seeded: the same weights and seed give the same figures.
 *
 * Replay has no daily limits, so every card's year is independent of the others and each is
 * simulated on its own. Rating shares and seconds per answer are fsrs-rs's population defaults.
 */
import { mulberry32 } from './seeded-random.ts';

/** fsrs-rs `SimulatorConfig::default()`, the parts a learner without daily limits uses. */
const SIMULATOR_DEFAULTS = {
  /** Shares of again, hard, good, easy at a card's first answer. */
  firstRatingProb: [0.24, 0.094, 0.495, 0.171],
  /** Shares of hard, good, easy among recalled reviews. */
  reviewRatingProb: [0.224, 0.631, 0.145],
  /** Next same-day rating after again, hard, good (rows), while learning and relearning. */
  learningStepTransitions: [
    [0.3686, 0.0628, 0.5108, 0.0577],
    [0.0442, 0.4553, 0.4457, 0.0549],
    [0.0519, 0.047, 0.8462, 0.055],
  ],
  relearningStepTransitions: [
    [0.2157, 0.0643, 0.6595, 0.0604],
    [0.05, 0.4638, 0.4475, 0.0387],
    [0.1057, 0.1434, 0.7266, 0.0244],
  ],
  /** Seconds per answer in learning, review and relearning, by rating. */
  stateRatingCosts: [
    [19.58, 18.79, 13.78, 10.71],
    [19.38, 17.59, 12.38, 8.94],
    [16.44, 15.25, 12.32, 8.03],
  ],
  /** Replay's steps: learning 1m/10m, relearning 10m (src/domain/scheduling.ts). */
  learningStepCount: 2,
  relearningStepCount: 1,
  maxInterval: 36_500,
} as const;

const S_MIN = 0.001;
const S_MAX = 36_500;
const D_MIN = 1;
const D_MAX = 10;
const MAX_STEPS = 5;
const LEARNING = 0;
const REVIEW = 1;
const RELEARNING = 2;

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
/** Rating 1–4. */
type Rating = 1 | 2 | 3 | 4;

/** FSRS-6's memory model over weights `w` (21 of them; w[20] is the forgetting curve's decay). */
export function memoryModel(w: readonly number[]) {
  if (w.length !== 21 || !w.every(Number.isFinite)) throw new RangeError(`FSRS-6 needs 21 finite weights, got ${w.length}`);
  const decay = -w[20]!;
  const factor = 0.9 ** (1 / decay) - 1;
  const initD = (rating: Rating) => w[4]! - Math.exp(w[5]! * (rating - 1)) + 1;
  const model = {
    initS: (rating: Rating) => w[rating - 1]!,
    initD,
    recall: (elapsedDays: number, s: number) => (1 + (factor * elapsedDays) / s) ** decay,
    interval: (s: number, desiredRetention: number) => (s / factor) * (desiredRetention ** (1 / decay) - 1),
    afterSuccess: (s: number, r: number, d: number, rating: Rating) => {
      const hard = rating === 2 ? w[15]! : 1;
      const easy = rating === 4 ? w[16]! : 1;
      return clamp(s * (1 + Math.exp(w[8]!) * (11 - d) * s ** -w[9]! * (Math.exp((1 - r) * w[10]!) - 1) * hard * easy), S_MIN, S_MAX);
    },
    afterFailure: (s: number, r: number, d: number) => {
      const floor = s / Math.exp(w[17]! * w[18]!);
      return clamp(Math.min(w[11]! * d ** -w[12]! * ((s + 1) ** w[13]! - 1) * Math.exp((1 - r) * w[14]!), floor), S_MIN, S_MAX);
    },
    shortTerm: (s: number, rating: Rating) => {
      const sinc = Math.exp(w[17]! * (rating - 3 + w[18]!)) * s ** -w[19]!;
      return clamp(s * (rating >= 3 ? Math.max(sinc, 1) : sinc), S_MIN, S_MAX);
    },
    nextD: (d: number, rating: Rating) => {
      const damped = d + ((10 - d) / 9) * (-w[6]! * (rating - 3));
      return clamp(w[7]! * initD(4) + (1 - w[7]!) * damped, D_MIN, D_MAX);
    },
  };
  return model;
}

type Model = ReturnType<typeof memoryModel>;

const pick = (weights: readonly number[], u: number): Rating => {
  const total = weights.reduce((a, b) => a + b, 0);
  let x = u * total;
  for (let i = 0; i < weights.length; i++) {
    x -= weights[i]!;
    if (x < 0) return (i + 1) as Rating;
  }
  return weights.length as Rating;
};

/** Same-day steps after a first answer (learning) or a lapse (relearning): the memory after them and their seconds. */
function steps(m: Model, s: number, d: number, first: Rating | null, phase: typeof LEARNING | typeof RELEARNING, random: () => number) {
  const costs = SIMULATOR_DEFAULTS.stateRatingCosts[phase];
  const transitions = phase === LEARNING ? SIMULATOR_DEFAULTS.learningStepTransitions : SIMULATOR_DEFAULTS.relearningStepTransitions;
  const count = phase === LEARNING ? SIMULATOR_DEFAULTS.learningStepCount : SIMULATOR_DEFAULTS.relearningStepCount;
  let rating: Rating = first ?? 1;
  let seconds = first === null ? 0 : costs[rating - 1]!;
  let answers = 0;
  let consecutive = 0;
  const needed = rating > 2 ? Math.max(count - 1, 0) : count;
  for (let i = 0; i < MAX_STEPS && consecutive < needed && rating < 4; i++) {
    rating = pick(transitions[rating - 1]!, random());
    s = m.shortTerm(s, rating);
    d = m.nextD(d, rating);
    seconds += costs[rating - 1]!;
    answers++;
    if (rating > 2) consecutive++;
    else if (rating === 1) consecutive = 0;
  }
  return { s: clamp(s, S_MIN, S_MAX), d: clamp(d, D_MIN, D_MAX), seconds, answers };
}

export interface WorkloadPoint {
  desiredRetention: number;
  /** Reviews a day, averaged over the year: long-term reviews plus same-day steps, as Replay shows them. */
  reviewsPerDay: number;
  /** Of those, the reviews a day or more after the previous one (fsrs-rs's `review_cnt`). */
  longTermReviewsPerDay: number;
  /** Minutes of Replay a day, averaged over the year. */
  minutesPerDay: number;
  /** Expressions remembered on the last day (the sum of their recall probabilities). */
  rememberedAfterYear: number;
  /** `rememberedAfterYear` per minute of review over the year. */
  rememberedPerMinute: number;
}

export interface SimulationOptions {
  /** New expressions a day (default 10). The figures are linear in it. */
  newPerDay?: number;
  days?: number;
  seed?: number;
}

/**
 * A year of adding `newPerDay` expressions a day at one desired retention. Day `days - 1` is the
 * last; a card added on day t is first answered on day t. Every card draws from a stream of its
 * own, so curves over desired retentions compare like with like (common random numbers).
 */
export function simulateYear(w: readonly number[], desiredRetention: number, options: SimulationOptions = {}): WorkloadPoint {
  const { newPerDay = 10, days = 365, seed = 42 } = options;
  const m = memoryModel(w);
  const reviewCosts = SIMULATOR_DEFAULTS.stateRatingCosts[REVIEW];
  const nextDue = (day: number, s: number) => day + clamp(Math.round(m.interval(s, desiredRetention)), 1, SIMULATOR_DEFAULTS.maxInterval);
  let answers = 0;
  let longTerm = 0;
  let seconds = 0;
  let remembered = 0;
  for (let day = 0; day < days; day++) {
    for (let n = 0; n < newPerDay; n++) {
      // Each card its own stream: at another desired retention the same card meets the same luck.
      const random = mulberry32(Math.imul(seed, 0x9e3779b1) ^ (day * newPerDay + n));
      const first = pick(SIMULATOR_DEFAULTS.firstRatingProb, random());
      let card = steps(m, m.initS(first), clamp(m.initD(first), D_MIN, D_MAX), first, LEARNING, random);
      answers += 1 + card.answers;
      seconds += card.seconds;
      let last = day;
      let due = nextDue(day, card.s);
      while (due < days) {
        const r = m.recall(due - last, card.s);
        answers++;
        longTerm++;
        if (random() >= r) {
          const lapsed = steps(m, m.afterFailure(card.s, r, card.d), m.nextD(card.d, 1), null, RELEARNING, random);
          seconds += reviewCosts[0] + lapsed.seconds;
          answers += lapsed.answers;
          card = lapsed;
        } else {
          const rating = (pick(SIMULATOR_DEFAULTS.reviewRatingProb, random()) + 1) as Rating;
          seconds += reviewCosts[rating - 1]!;
          card = { ...card, s: m.afterSuccess(card.s, r, card.d, rating), d: m.nextD(card.d, rating) };
        }
        last = due;
        due = nextDue(due, card.s);
      }
      remembered += m.recall(days - 1 - last, card.s);
    }
  }
  const minutes = seconds / 60;
  return {
    desiredRetention,
    reviewsPerDay: answers / days,
    longTermReviewsPerDay: longTerm / days,
    minutesPerDay: minutes / days,
    rememberedAfterYear: remembered,
    rememberedPerMinute: minutes > 0 ? remembered / minutes : 0,
  };
}

/** The desired retentions a learner may choose, 0.80–0.97 by 0.01. */
export const RETENTION_STEPS: readonly number[] = Array.from({ length: 18 }, (_, i) => Math.round((0.8 + i * 0.01) * 100) / 100);

export interface RetentionWorkload {
  /** Per 1 new expression a day; scale linearly by the learner's rate. */
  points: WorkloadPoint[];
  /** The desired retention that keeps the most expressions per minute of review. */
  bestForTime: number;
  /** True when that best value is the lowest one offered: the curve only falls (FSRS-6 often does). */
  bestIsLowest: boolean;
}

/** Cards a day the curve is sampled with: 3,650 cards, ~0.3 s for the 18 points; the noise is ~1.5 % a point. */
const SAMPLE_PER_DAY = 10;

/**
 * The workload curve: every desired retention with the same seed (common random numbers keep
 * the curve smooth), SAMPLE_PER_DAY new a day divided back to 1 a day so the caller can scale it.
 */
export function retentionWorkload(w: readonly number[], seed = 42): RetentionWorkload {
  const points = RETENTION_STEPS.map((dr) => {
    const p = simulateYear(w, dr, { newPerDay: SAMPLE_PER_DAY, seed });
    return {
      ...p,
      reviewsPerDay: p.reviewsPerDay / SAMPLE_PER_DAY,
      longTermReviewsPerDay: p.longTermReviewsPerDay / SAMPLE_PER_DAY,
      minutesPerDay: p.minutesPerDay / SAMPLE_PER_DAY,
      rememberedAfterYear: p.rememberedAfterYear / SAMPLE_PER_DAY,
    };
  });
  const best = points.reduce((a, b) => (b.rememberedPerMinute > a.rememberedPerMinute ? b : a));
  return { points, bestForTime: best.desiredRetention, bestIsLowest: best.desiredRetention === RETENTION_STEPS[0] };
}
