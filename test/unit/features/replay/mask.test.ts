import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FULL_MASK_STABILITY_DAYS,
  MASK_HIDDEN,
  MASK_SHOWN,
  MIN_HIDDEN_LETTERS,
  applyMask,
  buildMask,
  hiddenCount,
  hiddenLetterShare,
  initialsHiddenShare,
} from '../../../../src/features/replay/mask.ts';

const RUNS = { numRuns: 2000 };

const isLetter = (c: string) => /^\p{L}$/u.test(c);
const isMark = (c: string) => /^\p{M}$/u.test(c);
const neverHidden = (c: string) => /^[\p{White_Space}\p{P}\p{S}\p{N}]$/u.test(c);
const codePoints = (s: string) => Array.from(s);
const letterCount = (s: string) => codePoints(s).filter(isLetter).length;
/** Words (split on spaces and dashes) that contain a letter: each has one first letter. */
const letterWordCount = (s: string) => s.split(/[\p{White_Space}\p{Pd}]/u).filter((w) => codePoints(w).some(isLetter)).length;

// Pieces that exercise the tricky parts: accents, ß, other scripts, emoji (incl. ZWJ and skin
// tone), both apostrophes, combining sequences, a stray mark, dashes, digits, odd spaces.
const PIECES = [
  'Ça',
  'va',
  'très',
  'bien',
  'naïve',
  'café',
  'Straße',
  'Привет',
  'мир',
  '日本語',
  'を',
  '한국어',
  'ελληνικά',
  'שלום',
  '👍🏽',
  '👨‍👩‍👧',
  "it's",
  'don’t',
  'e\u0301',
  'a\u0308\u0301',
  '\u0301',
  'I',
  'a',
  ' ',
  ' ',
  ' ',
  '\t',
  '\u00a0',
  '\u3000',
  '-',
  '—',
  '!',
  '?',
  ',',
  '.',
  '"',
  '«',
  '»',
  '€',
  '+',
  '42',
  '_',
  '(',
  ')',
  '…',
];
const answerArb = fc.oneof(
  fc.array(fc.constantFrom(...PIECES), { maxLength: 25 }).map((p) => p.join('')),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme-ascii', maxLength: 40 }),
);
const stabilityArb = fc.oneof(fc.double({ min: 0, max: 400, noNaN: true }), fc.constantFrom(0, 1, 7, 59.999, 60, 61, 1e6));
const inputArb = fc.record({
  cardId: fc.oneof(fc.uuid(), fc.string()),
  answer: answerArb,
  stability: stabilityArb,
  reps: fc.nat({ max: 200 }),
});

describe('initialsHiddenShare', () => {
  it('keeps every first letter of a never-reviewed card whatever its stability', () => {
    expect(initialsHiddenShare(0, 0)).toBe(0);
    expect(initialsHiddenShare(100, 0)).toBe(0);
  });

  it.each([
    [0, 0],
    [1, 0.1291],
    [7, 0.3416],
    [15, 0.5],
    [20, 0.5774],
    [60, 1],
    [365, 1],
  ])('stability %d days → %d', (stability, expected) => {
    expect(initialsHiddenShare(stability, 3)).toBeCloseTo(expected, 3);
  });

  it('treats NaN or negative stability as 0 and Infinity as fully learned', () => {
    expect(initialsHiddenShare(Number.NaN, 2)).toBe(0);
    expect(initialsHiddenShare(-5, 2)).toBe(0);
    expect(initialsHiddenShare(Number.POSITIVE_INFINITY, 2)).toBe(1);
  });

  it('stays in [0, 1] and never decreases as stability grows', () => {
    fc.assert(
      fc.property(stabilityArb, stabilityArb, fc.nat({ max: 1000 }), (a, b, reps) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const rLo = initialsHiddenShare(lo, reps);
        const rHi = initialsHiddenShare(hi, reps);
        expect(rLo).toBeGreaterThanOrEqual(0);
        expect(rHi).toBeLessThanOrEqual(1);
        expect(rHi).toBeGreaterThanOrEqual(rLo);
      }),
      RUNS,
    );
  });

  it('reaches 1 exactly at the full-mask stability', () => {
    expect(initialsHiddenShare(FULL_MASK_STABILITY_DAYS, 1)).toBe(1);
    expect(initialsHiddenShare(FULL_MASK_STABILITY_DAYS - 1, 1)).toBeLessThan(1);
  });
});

describe('buildMask examples', () => {
  const mask = (answer: string, stability = 0, reps = 0, cardId = 'card-1') => buildMask({ cardId, answer, stability, reps });

  it('shows only the first letter of each word of a new card', () => {
    const m = mask('Ça va très bien');
    expect(codePoints(m)).toHaveLength(15);
    expect(applyMask('Ça va très bien', m)).toBe('Ç_ v_ t___ b___');
    expect(hiddenLetterShare('Ça va très bien', m)).toBe(8 / 12);
  });

  it('hides first letters word by word as stability grows', () => {
    // 3 first letters: share 1/3 (6.67 days) hides one of them, 2/3 (26.7 days) two.
    for (const cardId of ['a', 'b', 'c', 'd', 'e', 'f']) {
      const seen = applyMask('take it easy', mask('take it easy', 7, 2, cardId));
      expect(seen).toMatch(/^(t___|____) (i_|__) (e___|____)$/);
      expect(hiddenCount(mask('take it easy', 7, 2, cardId))).toBe(8);
      expect(hiddenCount(mask('take it easy', 27, 2, cardId))).toBe(9);
    }
  });

  it('hides at least 3 letters, so one short word is recalled, not recognised', () => {
    expect(mask('go')).toBe('__');
    expect(mask('cat')).toBe('___');
    expect(applyMask('house', mask('house'))).toBe('h____');
    expect(hiddenCount(mask('I am'))).toBe(3);
  });

  it('pins the exact masks so items stay stable across releases', () => {
    expect(mask('Ça va très bien')).toBe('._.._..___..___');
    expect(mask("I don’t think so, it's well-known!", 2, 1)).toBe('...__._..____.._..__._..___..____.'); // I d__’_ t____ s_, __'_ w___-k____!
    expect(mask('Straße')).toBe('._____');
  });

  it('never hides apostrophes, hyphens, digits, emoji or spaces', () => {
    const answer = "it's don’t well-known 42 👍🏽 ok";
    const m = mask(answer, 1000, 9);
    const chars = codePoints(answer);
    codePoints(m).forEach((f, i) => expect(f).toBe(isLetter(chars[i]!) ? MASK_HIDDEN : MASK_SHOWN));
  });

  it('hides every letter from 60 days of stability', () => {
    expect(mask('naïve café', 60, 4)).toBe('_____.____');
  });

  it('hides a combining accent together with its letter', () => {
    const answer = 'e\u0301te\u0301'; // "été" decomposed: 5 code points, 3 letters
    expect(mask(answer, 100, 3)).toBe('_____');
    const m = mask(answer, 0, 0);
    expect(codePoints(m)).toHaveLength(5);
    expect(m).toBe('_____'); // three letters: the minimum hides them all
  });

  it('shows a combining mark that follows no letter', () => {
    expect(mask('\u0301ab', 100, 1)).toBe('.__');
  });

  it('hides the one letter of a one-letter answer and nothing in a letterless one', () => {
    expect(mask('I')).toBe('_');
    expect(mask('I!')).toBe('_.');
    expect(mask('42 — 👍')).toBe('......');
    expect(mask('')).toBe('');
  });

  it('hides first letters only once every other letter is hidden', () => {
    // 6 letters, 3 first letters: up to 3 hidden, no first letter may be hidden.
    const answer = 'ab cd ef';
    for (let s = 0; s <= 60; s += 0.5) {
      const seen = applyMask(answer, mask(answer, s, 5));
      const hidden = hiddenCount(mask(answer, s, 5));
      if (hidden <= 3) expect(seen.split(' ').map((w) => w[0])).toEqual(['a', 'c', 'e']);
    }
  });

  it('counts in code points, not UTF-16 units', () => {
    const answer = '𝒜b 😀'; // 𝒜 (a letter) and 😀 are astral: 2 UTF-16 units each
    const m = mask(answer, 100, 1);
    expect(codePoints(m)).toHaveLength(4);
    expect(m).toBe('__..');
  });

  it('moves the blanks between reviews and between cards', () => {
    const answer = 'I would rather not talk about it right now, thank you very much';
    const byReps = new Set(Array.from({ length: 20 }, (_, reps) => mask(answer, 3, reps + 1)));
    const byCard = new Set(Array.from({ length: 20 }, (_, i) => mask(answer, 3, 1, `card-${i}`)));
    expect(byReps.size).toBeGreaterThan(10);
    expect(byCard.size).toBeGreaterThan(10);
  });
});

describe('applyMask', () => {
  it('replaces hidden characters by _', () => {
    expect(applyMask('Straße', '....__')).toBe('Stra__');
    expect(applyMask('a b', '...')).toBe('a b');
  });

  it('rejects a mask of the wrong length', () => {
    expect(() => applyMask('abc', '..')).toThrow(RangeError);
    expect(() => applyMask('😀', '..')).toThrow(RangeError); // one code point, two mask chars
  });
});

describe('buildMask properties', () => {
  it('is as long as the answer in code points and uses only _ and .', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const m = buildMask(input);
        expect(codePoints(m)).toHaveLength(codePoints(input.answer).length);
        expect(m).toMatch(/^[_.]*$/);
      }),
      RUNS,
    );
  });

  it('only hides letters and the combining marks of hidden letters', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const chars = codePoints(input.answer);
        const flags = codePoints(buildMask(input));
        chars.forEach((c, i) => {
          if (neverHidden(c)) expect(flags[i]).toBe(MASK_SHOWN);
          if (isMark(c)) {
            const prev = i > 0 && (isLetter(chars[i - 1]!) || isMark(chars[i - 1]!)) ? flags[i - 1] : MASK_SHOWN;
            expect(flags[i]).toBe(prev);
          } else if (!isLetter(c)) {
            expect(flags[i]).toBe(MASK_SHOWN);
          }
        });
      }),
      RUNS,
    );
  });

  it('hides at least one character iff the answer has a letter', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        expect(hiddenCount(buildMask(input)) > 0).toBe(letterCount(input.answer) > 0);
      }),
      RUNS,
    );
  });

  it('hides every letter but the first letters, and round(share × first letters) of those, at least 3', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const letters = letterCount(input.answer);
        const initials = letterWordCount(input.answer);
        const chars = codePoints(input.answer);
        const hiddenLetters = codePoints(buildMask(input)).filter((f, i) => f === MASK_HIDDEN && isLetter(chars[i]!));
        const planned = letters - initials + Math.round(initialsHiddenShare(input.stability, input.reps) * initials);
        expect(hiddenLetters).toHaveLength(Math.min(letters, Math.max(MIN_HIDDEN_LETTERS, planned)));
      }),
      RUNS,
    );
  });

  it('keeps the answer reconstructible: every non-letter and every word’s length stay visible', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const chars = codePoints(input.answer);
        const seen = codePoints(applyMask(input.answer, buildMask(input)));
        // The learner's view differs from the answer only where a letter (and its marks) was blanked,
        // one blank per code point, so filling the blanks in order with the answer's characters gives it back.
        expect(seen).toHaveLength(chars.length);
        seen.forEach((c, i) => {
          if (c !== chars[i]) expect(isLetter(chars[i]!) || isMark(chars[i]!)).toBe(true);
        });
        let k = 0;
        const hiddenChars = chars.filter((_, i) => seen[i] === MASK_HIDDEN && chars[i] !== MASK_HIDDEN);
        const refilled = seen.map((c, i) => (c === MASK_HIDDEN && chars[i] !== MASK_HIDDEN ? hiddenChars[k++] : c)).join('');
        expect(refilled).toBe(input.answer);
      }),
      RUNS,
    );
  });

  it('hides more of a reviewed card than of the same card new, never less', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const fresh = hiddenLetterShare(input.answer, buildMask({ ...input, stability: 0, reps: 0 }));
        expect(hiddenLetterShare(input.answer, buildMask({ ...input, reps: input.reps + 1 }))).toBeGreaterThanOrEqual(fresh);
      }),
      RUNS,
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        expect(buildMask({ ...input })).toBe(buildMask({ ...input }));
      }),
      RUNS,
    );
  });

  it('hides a superset of positions when stability grows for the same card and reps', () => {
    fc.assert(
      fc.property(inputArb, stabilityArb, (input, other) => {
        const [lo, hi] = input.stability <= other ? [input.stability, other] : [other, input.stability];
        const mLo = codePoints(buildMask({ ...input, stability: lo }));
        const mHi = codePoints(buildMask({ ...input, stability: hi }));
        expect(hiddenCount(mHi.join(''))).toBeGreaterThanOrEqual(hiddenCount(mLo.join('')));
        mLo.forEach((f, i) => {
          if (f === MASK_HIDDEN) expect(mHi[i]).toBe(MASK_HIDDEN);
        });
      }),
      RUNS,
    );
  });

  it('keeps first letters of space-separated words while other letters remain', () => {
    const wordArb = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(fc.array(wordArb, { minLength: 1, maxLength: 8 }), inputArb, (words, input) => {
        const answer = words.join(' ');
        const m = buildMask({ ...input, answer });
        const tails = answer.length - words.length - (words.length - 1); // letters minus first letters
        if (hiddenCount(m) <= tails) {
          for (const w of applyMask(answer, m).split(' ')) expect(w[0]).not.toBe(MASK_HIDDEN);
        }
      }),
      RUNS,
    );
  });

  it('applyMask keeps shown characters and blanks hidden ones', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const m = codePoints(buildMask(input));
        const chars = codePoints(input.answer);
        const seen = codePoints(applyMask(input.answer, m.join('')));
        expect(seen).toHaveLength(chars.length);
        seen.forEach((c, i) => expect(c).toBe(m[i] === MASK_HIDDEN ? MASK_HIDDEN : chars[i]));
      }),
      RUNS,
    );
  });
});
