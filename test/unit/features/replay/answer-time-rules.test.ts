import { describe, expect, it } from 'vitest';
import { answerConflict, answerTimeProblem, recordedAt } from '../../../../src/features/replay/answer-time-rules.ts';

const now = new Date('2026-11-28T08:00:00Z');
const sessionStartedAt = new Date('2026-11-28T07:00:00Z');
const at = (iso: string) => new Date(iso);

describe('an answer given offline, sent later', () => {
  it('is accepted from its session’s start up to the clock, a minute’s skew ahead taken as now', () => {
    expect(answerTimeProblem(at('2026-11-28T07:00:00Z'), { now, sessionStartedAt })).toBeNull();
    expect(answerTimeProblem(at('2026-11-28T08:00:59Z'), { now, sessionStartedAt })).toBeNull();
    expect(recordedAt(at('2026-11-28T08:00:59Z'), now)).toEqual(now);
    expect(recordedAt(at('2026-11-28T07:30:00Z'), now)).toEqual(at('2026-11-28T07:30:00Z'));
    expect(recordedAt(undefined, now)).toEqual(now);
  });

  it('is refused ahead of the clock, before its session, or older than a week', () => {
    expect(answerTimeProblem(at('2026-11-28T08:01:01Z'), { now, sessionStartedAt })).toBe('is in the future');
    expect(answerTimeProblem(at('2026-11-28T06:59:59Z'), { now, sessionStartedAt })).toBe('is before the session began');
    expect(answerTimeProblem(at('2026-11-21T07:59:59Z'), { now, sessionStartedAt: at('2026-11-01T00:00:00Z') })).toBe('is more than 7 days old');
  });

  it('counts once: the same item at the same time again is the first answer; at another time, or after a later review, it conflicts', () => {
    const answeredAt = at('2026-11-28T07:30:00Z');
    expect(answerConflict(answeredAt, { completedAt: null, lastReview: null })).toBeNull();
    expect(answerConflict(answeredAt, { completedAt: answeredAt, lastReview: null })).toBeNull();
    expect(answerConflict(answeredAt, { completedAt: at('2026-11-28T07:40:00Z'), lastReview: null })).toMatch(/another device/);
    expect(answerConflict(answeredAt, { completedAt: null, lastReview: at('2026-11-28T07:31:00Z') })).toMatch(/practised since/);
    expect(answerConflict(answeredAt, { completedAt: null, lastReview: at('2026-11-28T07:29:00Z') })).toBeNull();
  });
});
