import { describe, expect, it } from 'vitest';
import { importDone, importOutcome, type ImportCounts } from '../../../../../src/features/library/imports/progress-rules.ts';

const counts = (over: Partial<ImportCounts>): ImportCounts => ({
  total: 0,
  saved: 0,
  reused: 0,
  prepared: 0,
  preparing: 0,
  waiting: 0,
  waitingForCredits: 0,
  failed: {},
  removed: 0,
  ...over,
});

describe("an import's outcome in words", () => {
  it('is null while the import runs', () => {
    expect(importOutcome('preparing', counts({ total: 3, saved: 3 }), null)).toBeNull();
  });

  it('counts in the singular for one and the plural otherwise', () => {
    expect(importOutcome('completed', counts({ total: 3, saved: 2, prepared: 2, reused: 1 }), null)?.message).toBe(
      'All 2 new cards prepared. 1 was already in your library.',
    );
    expect(importOutcome('completed', counts({ total: 3, saved: 1, prepared: 1, reused: 2 }), null)?.message).toBe(
      'The new card is prepared. 2 were already in your library.',
    );
    expect(importOutcome('completed', counts({ total: 1, reused: 1 }), null)?.message).toBe('No new cards. 1 was already in your library.');
  });

  it('names failures by code, and what waits for credits with the renewal day', () => {
    const failed = importOutcome('completed', counts({ total: 1_200, saved: 1_200, prepared: 1_197, failed: { provider_output_invalid: 3 } }), null);
    expect(failed).toEqual({
      code: 'completed_with_failures',
      message: '1,197 of 1,200 prepared. 3 failed (provider_output_invalid: 3); retry them from the library.',
    });
    const waiting = importOutcome('waiting_for_credits', counts({ total: 1_000, saved: 1_000, prepared: 312 }), new Date('2026-12-01T00:00:00Z'));
    expect(waiting).toEqual({
      code: 'insufficient_credits',
      message: '312 of 1,000 prepared; the rest are saved and will be prepared when your credits renew on 1 December.',
    });
  });

  it('settles prepared, failed, reused and removed cards for the progress bar', () => {
    expect(importDone(counts({ prepared: 5, failed: { a: 1, b: 2 }, reused: 3, removed: 1, preparing: 9 }))).toBe(12);
  });
});
