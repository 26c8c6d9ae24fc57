import fc from 'fast-check';
import { Rating } from 'ts-fsrs';
import { describe, expect, it } from 'vitest';
import { type ReplayEvidence, ratingFromEvidence, ratingFromName, ratingName } from '../../../src/domain/replay-rating.ts';

const RUNS = { numRuns: 2000 };
const ev = (unaidedErrors: number, flags: Partial<ReplayEvidence> = {}): ReplayEvidence => ({
  usedHint: false,
  autoFilled: false,
  unaidedErrors,
  ...flags,
});

describe('ratingFromEvidence', () => {
  it.each<[string, ReplayEvidence, number, Rating]>([
    ['auto-filled beats everything', ev(0, { autoFilled: true }), 10, Rating.Again],
    ['auto-filled with hint and errors', ev(50, { autoFilled: true, usedHint: true }), 10, Rating.Again],
    ['hint, no errors', ev(0, { usedHint: true }), 10, Rating.Hard],
    ['hint, few errors', ev(1, { usedHint: true }), 10, Rating.Hard],
    ['no errors', ev(0), 10, Rating.Easy],
    ['no errors, empty answer', ev(0), 0, Rating.Easy],
    ['1 error', ev(1), 10, Rating.Good],
    ['2 errors on 10: at the floor of 2', ev(2), 10, Rating.Good],
    ['3 errors on 10: over 2 and over 20 %', ev(3), 10, Rating.Hard],
    ['2 errors on 1: the floor of 2 still tolerates', ev(2), 1, Rating.Good],
    ['3 errors on 1', ev(3), 1, Rating.Hard],
    ['3 errors on 15: exactly 20 % is still few', ev(3), 15, Rating.Good],
    ['4 errors on 15', ev(4), 15, Rating.Hard],
    ['4 errors on 20', ev(4), 20, Rating.Good],
    ['5 errors on 20', ev(5), 20, Rating.Hard],
    ['10 errors on 50', ev(10), 50, Rating.Good],
    ['11 errors on 50', ev(11), 50, Rating.Hard],
    ['3 errors on 14: 21 %', ev(3), 14, Rating.Hard],
  ])('%s', (_name, evidence, length, expected) => {
    expect(ratingName(ratingFromEvidence(evidence, length))).toBe(ratingName(expected));
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('rejects unaidedErrors = %d', (n) => {
    expect(() => ratingFromEvidence(ev(n), 10)).toThrow(RangeError);
  });

  it.each([-1, 2.5, Number.NaN])('rejects answerLength = %d', (n) => {
    expect(() => ratingFromEvidence(ev(0), n)).toThrow(RangeError);
  });

  const evidenceArb = fc.record({ usedHint: fc.boolean(), autoFilled: fc.boolean(), unaidedErrors: fc.nat({ max: 500 }) });
  const lengthArb = fc.nat({ max: 400 });

  it('never rates better with more errors', () => {
    fc.assert(
      fc.property(evidenceArb, fc.nat({ max: 500 }), lengthArb, (evidence, extra, length) => {
        const fewer = ratingFromEvidence(evidence, length);
        const more = ratingFromEvidence({ ...evidence, unaidedErrors: evidence.unaidedErrors + extra }, length);
        expect(more).toBeLessThanOrEqual(fewer);
      }),
      RUNS,
    );
  });

  it('never rates better with a hint or auto-fill', () => {
    fc.assert(
      fc.property(evidenceArb, lengthArb, (evidence, length) => {
        const base = ratingFromEvidence(evidence, length);
        expect(ratingFromEvidence({ ...evidence, usedHint: true }, length)).toBeLessThanOrEqual(base);
        expect(ratingFromEvidence({ ...evidence, autoFilled: true }, length)).toBe(Rating.Again);
      }),
      RUNS,
    );
  });

  it('never rates worse for the same errors on a longer answer', () => {
    fc.assert(
      fc.property(evidenceArb, lengthArb, fc.nat({ max: 400 }), (evidence, length, extra) => {
        expect(ratingFromEvidence(evidence, length + extra)).toBeGreaterThanOrEqual(ratingFromEvidence(evidence, length));
      }),
      RUNS,
    );
  });

  it('always returns one of the four grades, easy only without any error or help', () => {
    fc.assert(
      fc.property(evidenceArb, lengthArb, (evidence, length) => {
        const r = ratingFromEvidence(evidence, length);
        expect([Rating.Again, Rating.Hard, Rating.Good, Rating.Easy]).toContain(r);
        const clean = !evidence.autoFilled && !evidence.usedHint && evidence.unaidedErrors === 0;
        expect(r === Rating.Easy).toBe(clean);
      }),
      RUNS,
    );
  });
});

describe('ratingName', () => {
  it('names the four grades and round-trips with ratingFromName', () => {
    expect([Rating.Again, Rating.Hard, Rating.Good, Rating.Easy].map(ratingName)).toEqual(['again', 'hard', 'good', 'easy']);
    for (const name of ['again', 'hard', 'good', 'easy'] as const) expect(ratingName(ratingFromName(name))).toBe(name);
  });

  it('rejects Manual and out-of-range values', () => {
    expect(() => ratingName(Rating.Manual)).toThrow(RangeError);
    expect(() => ratingName(7 as Rating)).toThrow(RangeError);
  });
});
