import { describe, expect, it } from 'vitest';
import { costCeilingUsd, inputTokenBound, MODEL_OUTPUT_TOKEN_CAP, OUTPUT_TOKEN_LIMITS, translationOutputTokens } from '../../../src/domain/model-budget.ts';

const gpt4oMini = { inputUsdPerMillionTokens: '0.15', outputUsdPerMillionTokens: '0.6' };

describe('output token limits', () => {
  it('bound every fixed-shape kind of work below the model cap', () => {
    for (const limit of Object.values(OUTPUT_TOKEN_LIMITS)) expect(limit).toBeGreaterThan(0);
    for (const limit of Object.values(OUTPUT_TOKEN_LIMITS)) expect(limit).toBeLessThanOrEqual(MODEL_OUTPUT_TOKEN_CAP);
  });

  it('scale a translation with its source text (code points) and items, up to the cap', () => {
    expect(translationOutputTokens(['Sign in'])).toBe(256 + 4 * 7 + 32);
    expect(translationOutputTokens(['😀😀'])).toBe(256 + 4 * 2 + 32);
    expect(translationOutputTokens(['a', 'b', 'c'])).toBe(256 + 4 * 3 + 32 * 3);
    expect(translationOutputTokens(['x'.repeat(8_000)])).toBe(MODEL_OUTPUT_TOKEN_CAP);
  });
});

describe('cost ceiling', () => {
  it('prices input and output tokens exactly, in decimal text', () => {
    // 1,000 × 0.15 / 1e6 + 500 × 0.6 / 1e6 = 0.00015 + 0.0003
    expect(costCeilingUsd({ input: 1_000, output: 500 }, gpt4oMini)).toBe('0.00045');
    expect(costCeilingUsd({ input: 3, output: 7 }, { inputUsdPerMillionTokens: '0.1', outputUsdPerMillionTokens: '0.3' })).toBe('0.0000024');
    expect(costCeilingUsd({ input: 0, output: 0 }, gpt4oMini)).toBe('0');
  });

  it('counts at most one input token per request byte, plus the message overhead', () => {
    expect(inputTokenBound(1_000)).toBe(1_064);
  });
});
