import { describe, expect, it } from 'vitest';
import { buildMask } from '../../../../src/features/replay/mask.ts';
import { planSession, type ReplayCandidate } from '../../../../src/features/replay/session-plan.ts';

const now = new Date('2025-06-01T12:00:00Z');
const at = (iso: string) => new Date(iso);
const card = (cardId: string, over: Partial<ReplayCandidate> = {}): ReplayCandidate => ({
  cardId,
  prompt: `[fr] ${cardId}`,
  answer: `answer ${cardId}`,
  isNew: false,
  due: at('2025-05-31T00:00:00Z'),
  stability: 5,
  reps: 3,
  ...over,
});

describe('planSession', () => {
  it('puts due reviewed cards first by due, then new cards by due, leaving out cards not yet due', () => {
    const plan = planSession(
      [
        card('new-late', { isNew: true, due: at('2025-05-30T00:00:00Z'), reps: 0, stability: 0 }),
        card('due-recent', { due: at('2025-06-01T11:00:00Z') }),
        card('not-due', { due: at('2025-06-02T00:00:00Z') }),
        card('new-early', { isNew: true, due: at('2025-05-01T00:00:00Z'), reps: 0, stability: 0 }),
        card('due-old', { due: at('2025-05-20T00:00:00Z') }),
        card('due-now', { due: now }),
      ],
      10,
      now,
    );
    expect(plan.map((p) => p.cardId)).toEqual(['due-old', 'due-recent', 'due-now', 'new-early', 'new-late']);
    expect(plan.map((p) => p.position)).toEqual([0, 1, 2, 3, 4]);
  });

  it('stops at count, breaks ties on the card id and never repeats a card', () => {
    const same = at('2025-05-31T00:00:00Z');
    const plan = planSession([card('b', { due: same }), card('a', { due: same }), card('a', { due: same }), card('c', { due: same })], 2, now);
    expect(plan.map((p) => p.cardId)).toEqual(['a', 'b']);
  });

  it("builds each mask from the card's answer, stability and reps", () => {
    const c = card('x', { answer: 'under the weather', stability: 12, reps: 4 });
    const [item] = planSession([c], 10, now);
    expect(item).toEqual({
      position: 0,
      cardId: 'x',
      prompt: '[fr] x',
      answer: 'under the weather',
      mask: buildMask({ cardId: 'x', answer: 'under the weather', stability: 12, reps: 4 }),
    });
  });

  it('returns nothing for nothing', () => {
    expect(planSession([], 10, now)).toEqual([]);
  });
});
