import { describe, expect, it } from 'vitest';
import { askAgainAfterInvalidAnswer, CARD_ENRICHMENT_BUDGET } from '../../../../src/features/library/preparation-budget.ts';

describe('askAgainAfterInvalidAnswer', () => {
  it('asks again once after output that may get better', () => {
    for (const problem of ['schema_violation', 'not_json', 'no_content', undefined]) {
      expect(askAgainAfterInvalidAnswer(problem, 1)).toBe(true);
      expect(askAgainAfterInvalidAnswer(problem, CARD_ENRICHMENT_BUDGET.invalidAnswerRetries + 1)).toBe(false);
    }
  });

  it('never asks again after a refusal or an answer cut off at its length limit', () => {
    expect(askAgainAfterInvalidAnswer('refused', 1)).toBe(false);
    expect(askAgainAfterInvalidAnswer('cut_off', 1)).toBe(false);
  });

  it('keeps the per-card budget above one attempt\'s own retries, so a refresh still has calls left', () => {
    expect(CARD_ENRICHMENT_BUDGET.modelCalls).toBeGreaterThan(CARD_ENRICHMENT_BUDGET.invalidAnswerRetries + 1);
  });
});
