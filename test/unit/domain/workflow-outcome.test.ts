import { describe, expect, it } from 'vitest';
import { businessOutcomeOf, isBusinessOutcome } from '../../../src/domain/workflow-outcome.ts';

describe('workflow outcomes', () => {
  it('running out of credits is a business outcome; provider, output and infrastructure failures are not', () => {
    expect(businessOutcomeOf('insufficient_credits')).toBe('insufficient_credits');
    for (const code of ['service_unavailable', 'internal_error', 'provider_output_invalid', 'privacy_routing_unavailable'] as const) {
      expect(businessOutcomeOf(code)).toBeNull();
    }
  });

  it('recognises a business outcome read back from a search attribute', () => {
    expect(isBusinessOutcome('deleted')).toBe(true);
    expect(isBusinessOutcome('insufficient_credits')).toBe(true);
    expect(isBusinessOutcome('service_unavailable')).toBe(false);
    expect(isBusinessOutcome(undefined)).toBe(false);
  });
});
