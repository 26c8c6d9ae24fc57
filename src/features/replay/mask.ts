/**
 * Replay character masks: which characters of a card's English answer the learner must
 * reconstruct. Pure functions, no I/O, no clock, no Math.random.
 */
import { mulberry32 } from '../../domain/seeded-random.ts';

export const MASK_HIDDEN = '_';
export const MASK_SHOWN = '.';

export interface MaskInput {
  cardId: string;
  answer: string;
  /** FSRS stability in days (0 for a card never reviewed). */
  stability: number;
  /** Completed reviews of the card. */
  reps: number;
}

/** Letters a mask hides at least (every letter of a shorter answer): enough that even one short word is recalled, not recognised. */
export const MIN_HIDDEN_LETTERS = 3;
/** Stability (days) from which every letter is hidden, first letters included. */
export const FULL_MASK_STABILITY_DAYS = 60;

const LETTER = /^\p{L}$/u;
const MARK = /^\p{M}$/u;
// Dashes split words so "well-known" gives two first-letter hints, like "well known".
const WORD_BREAK = /^[\p{White_Space}\p{Pd}]$/u;

/**
 * Share of the words' first letters hidden for a card in the given learning state, in [0, 1].
 *
 * Every letter but the first of each word is hidden from the first encounter on; the first
 * letters are the hints that remain. A never-reviewed card (`reps` 0) keeps them all (share 0).
 * After that the share grows
 * with the square root of FSRS stability — fast while a card is fragile, flattening as it
 * settles — `√(min(stability, 60) / 60)`: about 13 % at 1 day, 34 % at 7 days, 58 % at 20 days,
 * and every first letter from 60 days on. Non-decreasing in stability for any fixed `reps`.
 */
export function initialsHiddenShare(stability: number, reps: number): number {
  if (!(reps > 0)) return 0;
  // NaN or negative stability is treated as "nothing learned yet"; +Infinity as fully learned.
  const s = Number.isNaN(stability) ? 0 : Math.min(Math.max(stability, 0), FULL_MASK_STABILITY_DAYS);
  return Math.sqrt(s / FULL_MASK_STABILITY_DAYS);
}

/**
 * Builds the Replay mask for one card.
 *
 * The mask is a string exactly as long as `answer` counted in Unicode code points (not UTF-16
 * units), one mask character per answer code point: `_` where the character is hidden and the
 * learner must type it, `.` where it is shown as is.
 *
 * - Only letters (Unicode category L, any script: "é", "ß", "Ж", "語") are ever hidden. Spaces,
 *   punctuation (including apostrophes in "it's" / "don’t" and hyphens), symbols, emoji and
 *   digits are always shown.
 * - A combining mark (category M, e.g. the accent in "e\u0301") shares the mask character of
 *   the letter it follows, so a letter and its accents are hidden or shown together. A mark
 *   that follows no letter is shown.
 * - How many letters are hidden grows with how well the card is known. A new card shows only
 *   the first letter of each word and hides every other letter; as FSRS stability grows, the
 *   first letters go too (see the share below), until every letter is hidden at 60 days of
 *   stability. Whatever the state, at least 3 letters are hidden (every letter of an answer
 *   with fewer), so a one-word answer is recalled, not recognised. An answer without letters
 *   has no `_`.
 * - The answer stays reconstructible from the prompt and the mask: spaces, punctuation and the
 *   length of every word are always shown, and nothing else is ever blanked.
 * - Hiding goes word by word (words are separated by spaces and dashes): the service picks a
 *   word and hides it from its end towards its start, then the next word. The first letter of
 *   every word stays visible as a hint until all other letters are hidden.
 * - The mask is deterministic: the order of words comes from a pseudo-random generator seeded
 *   with the card id and its review count. The same card in the same learning state always gets
 *   the same mask; after each review the blanks move. For the same card and review count, a
 *   higher stability hides a superset of the letters hidden at a lower one.
 */
export function buildMask(input: MaskInput): string {
  const chars = Array.from(input.answer);
  const words = letterWords(chars);
  const letterCount = words.reduce((n, w) => n + w.length, 0);
  const mask = chars.map(() => MASK_SHOWN);
  if (letterCount === 0) return mask.join('');

  const hidden = hiddenLetterCount(words, input.stability, input.reps);
  const order = hidingOrder(words, mulberry32(fnv1a(`${input.cardId}\u0000${input.reps}`)));
  for (const letter of order.slice(0, hidden)) {
    mask[letter] = MASK_HIDDEN;
    // A combining sequence is one letter to the reader: hide its marks with it.
    for (let i = letter + 1; i < chars.length && MARK.test(chars[i]!); i++) mask[i] = MASK_HIDDEN;
  }
  return mask.join('');
}

/**
 * What the learner sees: every code point whose mask character is `_` replaced by `_`, every
 * other one kept. Throws a RangeError when the mask's length in code points differs from the
 * answer's.
 */
export function applyMask(answer: string, mask: string): string {
  const [chars, flags] = codePointPairs(answer, mask);
  return chars.map((c, i) => (flags[i] === MASK_HIDDEN ? MASK_HIDDEN : c)).join('');
}

/** Number of hidden positions in a mask: the characters the learner had to reconstruct. */
export function hiddenCount(mask: string): number {
  let n = 0;
  for (const c of mask) if (c === MASK_HIDDEN) n++;
  return n;
}

function codePointPairs(answer: string, mask: string): [string[], string[]] {
  const chars = Array.from(answer);
  const flags = Array.from(mask);
  if (chars.length !== flags.length) {
    throw new RangeError(`mask has ${flags.length} code points, answer has ${chars.length}`);
  }
  return [chars, flags];
}

/** How many letters {@link buildMask} hides for these words in this learning state. */
function hiddenLetterCount(words: readonly number[][], stability: number, reps: number): number {
  const letters = words.reduce((n, w) => n + w.length, 0);
  const initials = words.length;
  const hidden = letters - initials + Math.round(initialsHiddenShare(stability, reps) * initials);
  return Math.min(letters, Math.max(hidden, MIN_HIDDEN_LETTERS));
}

/**
 * Share of the answer's letters that the mask hides, in [0, 1] (0 for an answer without letters):
 * how much of the answer the learner recalled rather than read. Combining marks are not counted.
 * Throws a RangeError when the mask's length in code points differs from the answer's.
 */
export function hiddenLetterShare(answer: string, mask: string): number {
  const [chars, flags] = codePointPairs(answer, mask);
  let letters = 0;
  let hidden = 0;
  chars.forEach((c, i) => {
    if (!LETTER.test(c)) return;
    letters++;
    if (flags[i] === MASK_HIDDEN) hidden++;
  });
  return letters === 0 ? 0 : hidden / letters;
}

/** Code-point indexes of the letters of each word, in reading order; words without letters are dropped. */
function letterWords(chars: readonly string[]): number[][] {
  const words: number[][] = [];
  let current: number[] = [];
  chars.forEach((c, i) => {
    if (WORD_BREAK.test(c)) {
      if (current.length > 0) words.push(current);
      current = [];
    } else if (LETTER.test(c)) {
      current.push(i);
    }
  });
  if (current.length > 0) words.push(current);
  return words;
}

/**
 * The order in which letters get hidden: first the non-initial letters of each word, word by
 * word in seeded order and each word from its end; then the first letters, in the same word order.
 * Stability only decides how long a prefix of this order is hidden, which makes masks nested.
 */
function hidingOrder(words: readonly number[][], random: () => number): number[] {
  const shuffled = [...words];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
  }
  const tails = shuffled.flatMap((w) => w.slice(1).reverse());
  const initials = shuffled.map((w) => w[0]!);
  return [...tails, ...initials];
}

/** 32-bit FNV-1a over UTF-16 units: a small, stable string hash for seeding. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Exported for the bench's simulator. */
export { mulberry32 };
