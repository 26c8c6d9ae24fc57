import { describe, expect, it } from 'vitest';
import { usedAmong } from '../../../../src/features/drafts/service.ts';

describe('usedAmong (Output Flow usedCardIds)', () => {
  it('keeps only offered ids, once each, in the model order', () => {
    const offered = [{ cardId: 'a' }, { cardId: 'b' }, { cardId: 'c' }];
    expect(usedAmong(['c', 'x', 'a', 'c'], offered)).toEqual(['c', 'a']);
    expect(usedAmong(['a'], [])).toEqual([]);
  });
});
