import { describe, expect, it } from 'vitest';
import { available, chargedFor, credits, isLow, lastCost, type LedgerEntry } from '../../../web/src/credits.ts';

const entry = (kind: string, amount: number, ref: string | null = null): LedgerEntry => ({ kind, amount, ref, createdAt: '2026-11-23T12:00:00Z' });
// Newest first, as the ledger lists them.
const ledger = [
  entry('capture_preparation', -3, 'card-b'),
  entry('capture_preparation', -1, 'card-b'),
  entry('work', -7),
  entry('capture_preparation', -2, 'card-a'),
  entry('grant', 500),
];

describe('credits as the page shows them', () => {
  it('warns when what is available falls under a tenth of the allowance', () => {
    expect(isLow({ balance: 60, held: 0, monthlyAllowance: 500 })).toBe(false);
    expect(isLow({ balance: 60, held: 20, monthlyAllowance: 500 })).toBe(true);
    expect(available({ balance: 5, held: 9, monthlyAllowance: 500 })).toBe(0);
  });

  it('reads the latest cost of a kind and what one card was charged', () => {
    expect(lastCost(ledger, 'capture_preparation')).toBe(3);
    expect(lastCost(ledger, 'audio')).toBeNull();
    expect(lastCost(ledger, 'grant')).toBeNull();
    expect(chargedFor(ledger, 'card-b')).toBe(4);
    expect(chargedFor(ledger, 'card-c')).toBeNull();
  });

  it('counts credits in words', () => {
    expect(credits(1)).toBe('1 credit');
    expect(credits(1500)).toBe('1,500 credits');
  });
});
