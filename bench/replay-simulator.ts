/**
 * A deterministic Replay simulator: a synthetic learner with a known forgetting curve
 * practises 200 cards for 90 days under a mapping (masks + evidence → rating) and our FSRS
 * scheduler. Pure: no I/O, no clock, no Math.random; the same mapping always gives the same figures.
 *
 * The learner's law (what FSRS has to discover from the ratings alone):
 * - Recall probability after t days: R = (1 + t / (9 S))⁻¹, so R = 90 % when t = S (the true stability).
 * - Recalled: S grows by 1 + 6 (1 − d/2) S^−0.2 (e^{3(1 − R)} − 0.9) (0.4 + 0.6 h), where d is the
 *   card's difficulty and h the share of letters hidden: spaced, effortful retrieval strengthens
 *   most (the testing effect), reading half the answer off the mask strengthens less.
 * - Not recalled, but rebuilt from the letters shown (probability (1 − h)^0.7): the learner restudied
 *   it; S × 1.2. Not recalled at all: S × 0.25 (at least 0.2 days); the answer is shown, so it is restudied.
 * - Evidence: recall slips an error with probability 0.1 + 0.25 d and takes (2 s + 0.5 s per hidden
 *   character) × (1 + 2 (1 − R)); a rebuilt answer has 0–2 errors and takes three times as long; a
 *   failure is a hint (40 %), an auto-fill (35 %) or an error on every hidden character.
 * - Prompt: a translation (Replay's default), or the context cloze (the expression masked inside the
 *   learner's own sentence, src/features/replay/context-cloze.ts). For the cloze the model ASSUMES, as
 *   nothing here measures it, that (a) the sentence is a retrieval cue: at review the learner recalls
 *   as if the memory were `cueStability` times as stable (1.5 by default; encoding specificity, Tulving
 *   & Thomson 1973: the context a learner met an item in helps recall it; and the words around a gap
 *   narrow what fits); (b) an easier retrieval strengthens less: the growth above is evaluated at the
 *   cued R (retrieval effort, Pyc & Rawson 2009), and what day 90 measures stays recall from the
 *   meaning, without the sentence; (c) reading the sentence adds `readingMs` (3 s: ~12 words at ~240
 *   words a minute) to every item.
 */
import type { Rating } from 'ts-fsrs';
import { buildMask, hiddenCount, hiddenLetterShare, mulberry32 } from '../src/features/replay/mask.ts';
import { type ItemDemand, type ReplayEvidence, ratingFromEvidence } from '../src/domain/replay-rating.ts';
import { trainingItems, type LoggedReview } from '../src/features/replay/optimisation-rules.ts';
import { ratingName } from '../src/domain/replay-rating.ts';
import { DEFAULT_DESIRED_RETENTION, type LearnerScheduling, type SchedulingState, newSchedulingState, review } from '../src/domain/scheduling.ts';
import { fitAndJudge } from '../src/features/replay/fsrs-fit.ts';

/** How one version of Replay turns a card into an item and the learner's evidence into a rating. */
export interface ReplayMapping {
  name: string;
  demand(card: { cardId: string; answer: string; stability: number; reps: number }): ItemDemand;
  rate(evidence: ReplayEvidence, demand: ItemDemand): Rating;
}

/** Today's Replay (main at 5022b0c): 25 % of the letters hidden on a new card, clean answers easy. */
export const TODAYS_MAPPING: ReplayMapping = {
  name: 'today (25 % mask, clean → easy)',
  demand({ answer, stability, reps }) {
    const letters = Array.from(answer).filter((c) => /\p{L}/u.test(c)).length;
    const s = Math.min(Math.max(stability, 0), 60);
    const share = reps > 0 ? 0.25 + 0.75 * Math.sqrt(s / 60) : 0.25;
    const hidden = Math.max(1, Math.round(share * letters));
    return { hiddenCount: hidden, hiddenShare: hidden / letters };
  },
  rate(evidence, demand) {
    const errors = evidence.unaidedErrors;
    if (evidence.autoFilled) return 1;
    if (evidence.usedHint) return 2;
    if (errors > 2 && errors * 5 > demand.hiddenCount) return 2;
    return errors > 0 ? 3 : 4;
  },
};

/** The service's mapping: src/domain's masks and ratings. */
export const SERVICE_MAPPING: ReplayMapping = {
  name: 'new (first letters, difficulty-aware)',
  demand(card) {
    const mask = buildMask(card);
    return { hiddenCount: hiddenCount(mask), hiddenShare: hiddenLetterShare(card.answer, mask) };
  },
  rate: ratingFromEvidence,
};

export interface SimulationOptions {
  cards: number;
  days: number;
  newPerDay: number;
  seed: number;
  desiredRetention: number;
  /** Run the personal optimiser every 7 days, as the service's weekly Schedule does, and schedule with the weights it applies. */
  personalWeights: boolean;
  /** What every item shows: the translation, or the cloze in the learner's own sentence (assumptions in the header). */
  prompt: PromptModel;
}

export interface PromptModel {
  kind: 'translation' | 'context';
  /** Recall at review as if the memory were this many times as stable (1: no cue). */
  cueStability: number;
  /** Time added to every item to read the prompt beyond the translation. */
  readingMs: number;
}
export const TRANSLATION_PROMPT: PromptModel = { kind: 'translation', cueStability: 1, readingMs: 0 };
/** The assumed context cloze; an assumption, not a measurement (header). */
export const CONTEXT_PROMPT: PromptModel = { kind: 'context', cueStability: 1.5, readingMs: 3_000 };
const DEFAULT_SIMULATION: SimulationOptions = {
  cards: 200,
  days: 90,
  newPerDay: 10,
  seed: 15,
  desiredRetention: DEFAULT_DESIRED_RETENTION,
  personalWeights: false,
  prompt: TRANSLATION_PROMPT,
};

export interface SimulationResult {
  mapping: string;
  prompt: PromptModel;
  desiredRetention: number;
  /** The day the optimiser first applied personal weights; null when it never did (or was off). */
  personalWeightsFrom: number | null;
  reviews: number;
  reviewsPerCard: number;
  reviewsPerDay: number;
  /** Minutes of practice a day, on average: the evidence's answer times plus the prompt's reading time. */
  minutesPerDay: number;
  /** Share of reviews at which the learner recalled the answer from memory. */
  recallAtReview: number;
  /** Expected number of cards the learner recalls on day 90 (sum of true recall probabilities). */
  expectedRetained: number;
  /** Cards whose true recall probability on day 90 is at least 90 %. */
  retained90: number;
  ratings: Record<'again' | 'hard' | 'good' | 'easy', number>;
}

const DAY_MS = 86_400_000;
const WORDS = [
  'take',
  'it',
  'easy',
  'under',
  'the',
  'weather',
  'break',
  'a',
  'leg',
  'piece',
  'of',
  'cake',
  'hit',
  'sack',
  'once',
  'in',
  'blue',
  'moon',
  'call',
  'day',
  'on',
  'fence',
  'spill',
  'beans',
  'cut',
  'corners',
  'get',
  'out',
  'hand',
  'pull',
  'your',
  'socks',
  'up',
  'no',
  'pain',
  'gain',
  'by',
  'way',
  'rather',
  'not',
  'talk',
  'about',
  'right',
  'now',
];

interface TrueMemory {
  stability: number;
  difficulty: number;
  lastSeen: number;
  random: () => number;
}
interface SimCard {
  cardId: string;
  answer: string;
  introducedAt: number;
  memory: TrueMemory;
  schedule: SchedulingState | null;
}

const recallProbability = (days: number, stability: number) => 1 / (1 + Math.max(days, 0) / (9 * stability));

export async function simulate(mapping: ReplayMapping, overrides: Partial<SimulationOptions> = {}): Promise<SimulationResult> {
  const options = { ...DEFAULT_SIMULATION, ...overrides };
  const log: LoggedReview[] = [];
  let weights: number[] | null = null;
  let personalWeightsFrom: number | null = null;
  const start = Date.UTC(2026, 0, 5, 9);
  const cards = makeCards(options, start);
  const ratings = { again: 0, hard: 0, good: 0, easy: 0 };
  let reviews = 0;
  let recalled = 0;
  let practiceMs = 0;

  for (let day = 0; day < options.days; day++) {
    let now = start + day * DAY_MS;
    if (options.personalWeights && day > 0 && day % 7 === 0) {
      const fit = await fitAndJudge(trainingItems(log), weights);
      if (fit.outcome === 'fitted' && fit.applied) {
        weights = fit.weights;
        personalWeightsFrom ??= day;
      }
    }
    const dayEnd = now + 12 * 3_600_000;
    for (const card of cards) if (card.schedule === null && card.introducedAt <= now) card.schedule = newSchedulingState(new Date(card.introducedAt));
    // One sitting: the learner takes the most overdue card until nothing is due before the evening.
    for (;;) {
      const next = earliestDue(cards, dayEnd);
      if (!next) break;
      now = Math.max(now, next.schedule!.due.getTime()) + 20_000;
      const outcome = practise(mapping, next, now, { desiredRetention: options.desiredRetention, weights }, options.prompt);
      practiceMs += outcome.durationMs + options.prompt.readingMs;
      log.push({ cardId: next.cardId, rating: ratingName(outcome.rating), reviewedAt: new Date(now) });
      reviews++;
      if (outcome.recalled) recalled++;
      ratings[(['again', 'hard', 'good', 'easy'] as const)[outcome.rating - 1]!]++;
    }
  }

  const end = start + options.days * DAY_MS;
  const finalRecall = cards.map((c) => recallProbability((end - c.memory.lastSeen) / DAY_MS, c.memory.stability));
  return {
    mapping: mapping.name,
    prompt: options.prompt,
    desiredRetention: options.desiredRetention,
    personalWeightsFrom,
    reviews,
    reviewsPerCard: reviews / cards.length,
    reviewsPerDay: reviews / options.days,
    minutesPerDay: practiceMs / 60_000 / options.days,
    recallAtReview: reviews === 0 ? 0 : recalled / reviews,
    expectedRetained: finalRecall.reduce((a, b) => a + b, 0),
    retained90: finalRecall.filter((r) => r >= 0.9).length,
    ratings,
  };
}

function makeCards(options: SimulationOptions, start: number): SimCard[] {
  const random = mulberry32(options.seed);
  return Array.from({ length: options.cards }, (_, i) => {
    const wordCount = 2 + Math.floor(random() * 5);
    const answer = Array.from({ length: wordCount }, () => WORDS[Math.floor(random() * WORDS.length)]!).join(' ');
    const introducedAt = start + Math.floor(i / options.newPerDay) * DAY_MS;
    const memory = { stability: 0.3 + 0.7 * random(), difficulty: random(), lastSeen: introducedAt - 3_600_000, random: mulberry32(options.seed * 7919 + i) };
    return { cardId: `card-${i}`, answer, introducedAt, memory, schedule: null };
  });
}

function earliestDue(cards: readonly SimCard[], before: number): SimCard | undefined {
  let best: SimCard | undefined;
  for (const c of cards) {
    const due = c.schedule?.due.getTime();
    if (due === undefined || due > before) continue;
    if (!best || due < best.schedule!.due.getTime()) best = c;
  }
  return best;
}

function practise(
  mapping: ReplayMapping,
  card: SimCard,
  now: number,
  learner: LearnerScheduling,
  prompt: PromptModel,
): { recalled: boolean; rating: Rating; durationMs: number } {
  const m = card.memory;
  const schedule = card.schedule!;
  const demand = mapping.demand({ cardId: card.cardId, answer: card.answer, stability: schedule.stability, reps: schedule.reps });
  const h = demand.hiddenShare;
  // Recall with this prompt's cue (the translation's is the memory itself).
  const r = recallProbability((now - m.lastSeen) / DAY_MS, m.stability * prompt.cueStability);
  const fluentMs = 2_000 + 500 * demand.hiddenCount;
  let evidence: ReplayEvidence;
  const recalled = m.random() < r;
  if (recalled) {
    evidence = {
      usedHint: false,
      autoFilled: false,
      unaidedErrors: m.random() < 0.1 + 0.25 * m.difficulty ? 1 : 0,
      durationMs: Math.round(fluentMs * (1 + 2 * (1 - r))),
    };
    m.stability *= 1 + 6 * (1 - m.difficulty / 2) * m.stability ** -0.2 * (Math.exp(3 * (1 - r)) - 0.9) * (0.4 + 0.6 * h);
  } else if (m.random() < (1 - h) ** 0.7) {
    evidence = { usedHint: false, autoFilled: false, unaidedErrors: Math.floor(m.random() * 3), durationMs: 3 * fluentMs };
    m.stability *= 1.2;
  } else {
    const u = m.random();
    evidence =
      u < 0.4
        ? { usedHint: true, autoFilled: false, unaidedErrors: Math.floor(m.random() * 3), durationMs: 3 * fluentMs }
        : u < 0.75
          ? { usedHint: false, autoFilled: true, unaidedErrors: 0, durationMs: 3 * fluentMs }
          : { usedHint: false, autoFilled: false, unaidedErrors: Math.max(demand.hiddenCount, 3), durationMs: 3 * fluentMs };
    m.stability = Math.max(0.2, m.stability * 0.25);
  }
  m.lastSeen = now;
  const rating = mapping.rate(evidence, demand);
  card.schedule = review(schedule, rating, new Date(now), learner).next;
  return { recalled, rating, durationMs: evidence.durationMs ?? 0 };
}
