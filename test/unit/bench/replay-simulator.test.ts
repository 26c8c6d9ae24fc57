import { describe, expect, it } from 'vitest';
import { CONTEXT_PROMPT, SERVICE_MAPPING, TODAYS_MAPPING, simulate } from '../../../bench/replay-simulator.ts';

describe('Replay simulator (bench/replay-simulator.ts)', () => {
  it('is deterministic, the personal optimiser included', async () => {
    expect(await simulate(SERVICE_MAPPING, { cards: 40, days: 30 })).toEqual(await simulate(SERVICE_MAPPING, { cards: 40, days: 30 }));
    const personal = await simulate(SERVICE_MAPPING, { personalWeights: true });
    expect(personal.personalWeightsFrom).not.toBeNull();
    expect(await simulate(SERVICE_MAPPING, { personalWeights: true })).toEqual(personal);
  }, 60_000);

  it('shows today’s mapping overrating (recall at review far below the 90 % asked) and the new one retaining more', async () => {
    const today = await simulate(TODAYS_MAPPING);
    const next = await simulate(SERVICE_MAPPING);
    expect(today.recallAtReview).toBeLessThan(0.75);
    expect(Math.abs(0.9 - next.recallAtReview)).toBeLessThan(Math.abs(0.9 - today.recallAtReview));
    expect(next.expectedRetained).toBeGreaterThan(today.expectedRetained);
    expect(next.ratings.easy).toBeLessThan(today.ratings.easy);
  });

  it('models the context cloze only through its stated assumptions: without cue or reading time it is the translation prompt', async () => {
    const translation = await simulate(SERVICE_MAPPING);
    const neutral = await simulate(SERVICE_MAPPING, { prompt: { kind: 'context', cueStability: 1, readingMs: 0 } });
    expect({ ...neutral, prompt: translation.prompt }).toEqual(translation);
    const cloze = await simulate(SERVICE_MAPPING, { prompt: CONTEXT_PROMPT });
    expect(cloze.recallAtReview).toBeGreaterThan(translation.recallAtReview);
    expect(cloze.minutesPerDay).toBeGreaterThan(translation.minutesPerDay);
  });
});
