import fc from 'fast-check';
import { Rating } from 'ts-fsrs';
import { describe, expect, it } from 'vitest';
import {
  EASY_MIN_HIDDEN_SHARE,
  type ItemDemand,
  type ReplayEvidence,
  ratingFromEvidence,
  ratingFromName,
  ratingName,
} from '../../../src/domain/replay-rating.ts';

const RUNS = { numRuns: 2000 };
const ev = (unaidedErrors: number, flags: Partial<ReplayEvidence> = {}): ReplayEvidence => ({
  usedHint: false,
  autoFilled: false,
  unaidedErrors,
  ...flags,
});

/** An item with `hidden` characters hidden and that share of its letters hidden (all of them unless said). */
const hid = (hidden: number, hiddenShare = 1): ItemDemand => ({ hiddenCount: hidden, hiddenShare });

describe('ratingFromEvidence', () => {
  it.each<[string, ReplayEvidence, ItemDemand, Rating]>([
    ['auto-filled beats everything', ev(0, { autoFilled: true }), hid(10), Rating.Again],
    ['auto-filled with hint and errors', ev(50, { autoFilled: true, usedHint: true }), hid(10), Rating.Again],
    ['hint, no errors', ev(0, { usedHint: true }), hid(10), Rating.Hard],
    ['hint, few errors', ev(1, { usedHint: true }), hid(10), Rating.Hard],
    ['no errors, everything hidden', ev(0), hid(10), Rating.Easy],
    ['no errors, 90 % hidden', ev(0), hid(9, 0.9), Rating.Easy],
    ['no errors, 89 % hidden', ev(0), hid(8, 0.89), Rating.Good],
    ['no errors, first letters shown (75 %)', ev(0), hid(9, 0.75), Rating.Good],
    ['no errors, 25 % hidden (today’s new-card mask)', ev(0), hid(3, 0.25), Rating.Good],
    ['no errors, empty answer', ev(0), hid(0, 0), Rating.Good],
    ['no errors, fully hidden, fluent: 12 s for 10', ev(0, { durationMs: 12_000 }), hid(10), Rating.Easy],
    ['no errors, fully hidden, slow: 12.001 s for 10', ev(0, { durationMs: 12_001 }), hid(10), Rating.Good],
    ['no errors, fully hidden, very slow (page left open)', ev(0, { durationMs: 86_400_000 }), hid(10), Rating.Good],
    ['1 error, slow: duration never lowers below good', ev(1, { durationMs: 600_000 }), hid(10), Rating.Good],
    ['1 error', ev(1), hid(10), Rating.Good],
    ['2 errors on 10: at the floor of 2', ev(2), hid(10), Rating.Good],
    ['3 errors on 10: over 2 and over 20 %', ev(3), hid(10), Rating.Hard],
    ['2 errors on 1: the floor of 2 still tolerates', ev(2), hid(1), Rating.Good],
    ['3 errors on 1', ev(3), hid(1), Rating.Hard],
    ['3 errors on 15: exactly 20 % is still few', ev(3), hid(15), Rating.Good],
    ['4 errors on 15', ev(4), hid(15), Rating.Hard],
    ['4 errors on 20', ev(4), hid(20), Rating.Good],
    ['5 errors on 20', ev(5), hid(20), Rating.Hard],
    ['10 errors on 50', ev(10), hid(50), Rating.Good],
    ['11 errors on 50', ev(11), hid(50), Rating.Hard],
    ['3 errors on 14: 21 %', ev(3), hid(14), Rating.Hard],
  ])('%s', (_name, evidence, demand, expected) => {
    expect(ratingName(ratingFromEvidence(evidence, demand))).toBe(ratingName(expected));
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('rejects unaidedErrors = %d', (n) => {
    expect(() => ratingFromEvidence(ev(n), hid(10))).toThrow(RangeError);
  });

  it.each([-1, 2.5, Number.NaN])('rejects hiddenCount = %d', (n) => {
    expect(() => ratingFromEvidence(ev(0), hid(n))).toThrow(RangeError);
  });

  it.each([-0.1, 1.01, Number.NaN])('rejects hiddenShare = %d', (share) => {
    expect(() => ratingFromEvidence(ev(0), hid(10, share))).toThrow(RangeError);
  });

  it.each([-1, 2.5, Number.NaN])('rejects durationMs = %d', (durationMs) => {
    expect(() => ratingFromEvidence(ev(0, { durationMs }), hid(10))).toThrow(RangeError);
  });

  const evidenceArb = fc.record(
    { usedHint: fc.boolean(), autoFilled: fc.boolean(), unaidedErrors: fc.nat({ max: 500 }), durationMs: fc.nat({ max: 600_000 }) },
    { requiredKeys: ['usedHint', 'autoFilled', 'unaidedErrors'] },
  );
  const demandArb = fc.record({ hiddenCount: fc.nat({ max: 400 }), hiddenShare: fc.double({ min: 0, max: 1, noNaN: true }) });

  it('never rates better with more errors', () => {
    fc.assert(
      fc.property(evidenceArb, fc.nat({ max: 500 }), demandArb, (evidence, extra, demand) => {
        const fewer = ratingFromEvidence(evidence, demand);
        const more = ratingFromEvidence({ ...evidence, unaidedErrors: evidence.unaidedErrors + extra }, demand);
        expect(more).toBeLessThanOrEqual(fewer);
      }),
      RUNS,
    );
  });

  it('never rates better with a hint or auto-fill', () => {
    fc.assert(
      fc.property(evidenceArb, demandArb, (evidence, demand) => {
        const base = ratingFromEvidence(evidence, demand);
        expect(ratingFromEvidence({ ...evidence, usedHint: true }, demand)).toBeLessThanOrEqual(base);
        expect(ratingFromEvidence({ ...evidence, autoFilled: true }, demand)).toBe(Rating.Again);
      }),
      RUNS,
    );
  });

  it('never rates worse for the same errors with more hidden, or better for taking longer', () => {
    fc.assert(
      fc.property(
        evidenceArb,
        demandArb,
        fc.nat({ max: 400 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.nat({ max: 600_000 }),
        (evidence, demand, extra, share, slower) => {
          const harder = { hiddenCount: demand.hiddenCount + extra, hiddenShare: Math.max(demand.hiddenShare, share) };
          expect(ratingFromEvidence(evidence, harder)).toBeGreaterThanOrEqual(ratingFromEvidence(evidence, demand));
          const later = { ...evidence, durationMs: (evidence.durationMs ?? 0) + slower };
          expect(ratingFromEvidence(later, demand)).toBeLessThanOrEqual(ratingFromEvidence(evidence, demand));
        },
      ),
      RUNS,
    );
  });

  it('rates easy only for clean, whole recall, and never easy below 90 % hidden', () => {
    fc.assert(
      fc.property(evidenceArb, demandArb, (evidence, demand) => {
        const r = ratingFromEvidence(evidence, demand);
        expect([Rating.Again, Rating.Hard, Rating.Good, Rating.Easy]).toContain(r);
        const clean = !evidence.autoFilled && !evidence.usedHint && evidence.unaidedErrors === 0;
        if (r === Rating.Easy) expect(clean && demand.hiddenShare >= EASY_MIN_HIDDEN_SHARE).toBe(true);
        if (clean && evidence.durationMs === undefined) expect(r === Rating.Easy).toBe(demand.hiddenShare >= EASY_MIN_HIDDEN_SHARE);
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
