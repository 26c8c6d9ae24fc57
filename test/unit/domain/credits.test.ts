import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyCharge,
  CREDITS_PER_USD,
  creditsForCost,
  MAX_COST_USD,
  monthlyAllowance,
  parseCostUsd,
  periodContaining,
  type ChargeKind,
} from '../../../src/domain/credits.ts';

describe('constants', () => {
  it('match the contract', () => {
    expect(CREDITS_PER_USD).toBe(1000);
    expect(monthlyAllowance).toEqual({ free: 500, paid: 5000 });
  });
});

describe('creditsForCost', () => {
  // Every expected value is worked out by hand from the contract's formulas:
  //   capture/work: ceil(cost × 100 000)   audio: ceil(cost × 5 000)
  //   translation:  round(cost, 3, half up) × 3 000        all: ≥ 1 when cost > 0
  const table: Array<{ cost: string; capture: number; audio: number; translation: number; why: string }> = [
    { cost: '0', capture: 0, audio: 0, translation: 0, why: 'free is free' },
    { cost: '0.000', capture: 0, audio: 0, translation: 0, why: 'zero written with decimals' },
    { cost: '0.0004', capture: 40, audio: 2, translation: 1, why: '40 | 2 | 0.000 → minimum 1' },
    { cost: '0.0005', capture: 50, audio: 3, translation: 3, why: '50 | ceil(2.5) | 0.001' },
    { cost: '0.0016', capture: 160, audio: 8, translation: 6, why: '160 | 8 | 0.002' },
    { cost: '0.0123456', capture: 1235, audio: 62, translation: 36, why: 'ceil(1234.56) | ceil(61.728) | 0.012' },
    {
      cost: '0.0004999999999999999999999',
      capture: 50,
      audio: 3,
      translation: 1,
      why: 'ceil(49.99…) | ceil(2.49…) | rounds DOWN to 0.000 → minimum 1',
    },
    {
      cost: '0.00050000000000000000001',
      capture: 51,
      audio: 3,
      translation: 3,
      why: 'ceil(50.000…001) | ceil(2.5…) | rounds up to 0.001',
    },
    { cost: '0.00000000000000000000000001', capture: 1, audio: 1, translation: 1, why: 'tiny but positive' },
    {
      cost: '0.12345678901234567890123456789',
      capture: 12346,
      audio: 618,
      translation: 369,
      why: 'ceil(12345.67…) | ceil(617.28…) | 0.123',
    },
    {
      cost: '0.010000000000000000000001',
      capture: 1001,
      audio: 51,
      translation: 30,
      why: 'more significant digits than decimal.js keeps by default: ceil(1000.0…01) | ceil(50.0…05) | 0.010',
    },
    { cost: '0.0041', capture: 410, audio: 21, translation: 12, why: 'float: 0.0041 × 100000 = 410.00000000000006' },
    { cost: '0.0102', capture: 1020, audio: 51, translation: 30, why: 'float: 0.0102 × 5000 = 51.00000000000001' },
    { cost: '0.00001', capture: 1, audio: 1, translation: 1, why: 'exactly 1 | ceil(0.05) | 0.000 → 1' },
    { cost: '0.0002', capture: 20, audio: 1, translation: 1, why: 'audio exactly 1' },
    { cost: '0.0002000000000000000000001', capture: 21, audio: 2, translation: 1, why: 'audio ceil(1.0…05)' },
    { cost: '0.0025', capture: 250, audio: 13, translation: 9, why: 'half UP: 0.003 (half-even would give 0.002)' },
    { cost: '1.0005', capture: 100050, audio: 5003, translation: 3003, why: 'float toFixed(3) gives 1.000; exact half-up 1.001' },
    { cost: '1', capture: 100000, audio: 5000, translation: 3000, why: 'one dollar' },
    { cost: '5e-7', capture: 1, audio: 1, translation: 1, why: 'exponent notation: 0.05 | 0.0025 | 0.000' },
    { cost: '1.5e-3', capture: 150, audio: 8, translation: 6, why: 'exponent notation: 150 | ceil(7.5) | 0.002' },
  ];

  const cases = table.flatMap(({ cost, capture, audio, translation, why }) =>
    (
      [
        ['capture_preparation', capture],
        ['work', capture],
        ['audio', audio],
        ['page_translation', translation],
        ['sentence_translation', translation],
      ] as Array<[ChargeKind, number]>
    ).map(([kind, expected]) => ({ kind, cost, expected, why })),
  );

  it.each(cases)('$kind $cost → $expected ($why)', ({ kind, cost, expected }) => {
    expect(creditsForCost(kind, cost)).toBe(expected);
  });

  it('returns safe integers up to the maximum cost', () => {
    expect(creditsForCost('capture_preparation', MAX_COST_USD)).toBe(100_000_000_000);
    expect(Number.isSafeInteger(creditsForCost('capture_preparation', '999999.999999999999999999999'))).toBe(true);
    expect(creditsForCost('capture_preparation', '999999.999999999999999999999')).toBe(100_000_000_000);
  });

  it('rejects garbage cost text', () => {
    for (const bad of ['', 'abc', '-0.001', 'NaN', 'Infinity', '0x10', '1,5']) {
      expect(() => creditsForCost('work', bad), bad).toThrow(RangeError);
    }
  });

  it('rejects an unknown kind', () => {
    expect(() => creditsForCost('replay' as ChargeKind, '0.01')).toThrow(RangeError);
  });

  it('is never 0 for a positive cost and 0 only for zero (property)', () => {
    const kinds: ChargeKind[] = ['capture_preparation', 'work', 'audio', 'page_translation', 'sentence_translation'];
    fc.assert(
      fc.property(fc.constantFrom(...kinds), fc.stringMatching(/^[0-9]{1,3}\.[0-9]{1,40}$/), (kind, cost) => {
        const credits = creditsForCost(kind, cost);
        expect(Number.isSafeInteger(credits)).toBe(true);
        if (/[1-9]/.test(cost)) expect(credits).toBeGreaterThanOrEqual(1);
        else expect(credits).toBe(0);
      }),
    );
  });

  it('is monotonic in cost (property)', () => {
    fc.assert(
      fc.property(fc.nat(10_000_000), fc.nat(10_000_000), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        // Costs in 1e-7 USD steps, written as exact decimal text.
        const text = (n: number) => `${Math.floor(n / 1e7)}.${String(n % 1e7).padStart(7, '0')}`;
        for (const kind of ['work', 'audio', 'page_translation'] as const) {
          expect(creditsForCost(kind, text(lo))).toBeLessThanOrEqual(creditsForCost(kind, text(hi)));
        }
      }),
    );
  });
});

describe('parseCostUsd', () => {
  it.each([
    ['0', '0'],
    ['0.0004', '0.0004'],
    ['  0.5\n', '0.5'],
    ['1.50', '1.5'],
    ['007.25', '7.25'],
    ['1e-3', '0.001'],
    ['5E-7', '0.0000005'],
    ['1.2e+2', '120'],
    ['0.12345678901234567890123456789', '0.12345678901234567890123456789'],
    ['0.00000000000000000000000001', '0.00000000000000000000000001'],
    [MAX_COST_USD, MAX_COST_USD],
  ])('accepts text %j → %j', (input, expected) => {
    expect(parseCostUsd(input)).toBe(expected);
  });

  it.each([
    [0, '0'],
    [-0, '0'],
    [0.0004, '0.0004'],
    [5e-7, '0.0000005'],
    [1.0005, '1.0005'],
    [12, '12'],
  ])('accepts number %s → %j (its shortest round-trip text)', (input, expected) => {
    expect(parseCostUsd(input)).toBe(expected);
  });

  it('accepts a bigint', () => {
    expect(parseCostUsd(2n)).toBe('2');
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['negative text', '-0.1'],
    ['negative zero text', '-0'],
    ['plus sign', '+1'],
    ['letters', 'abc'],
    ['NaN text', 'NaN'],
    ['Infinity text', 'Infinity'],
    ['hex', '0x10'],
    ['comma decimal', '1,5'],
    ['leading dot', '.5'],
    ['trailing dot', '5.'],
    ['inner space', '1 000'],
    ['dangling exponent', '1e'],
    ['two dots', '1.2.3'],
    ['currency sign', '$0.01'],
    ['above the maximum', '1000000.0000001'],
    ['huge exponent', '1e400'],
    ['too many decimal places', `0.${'0'.repeat(200)}1`],
    ['tiny exponent', '1e-201'],
    ['exponent below decimal.js range (would underflow to 0)', '1e-9000000000000000001'],
    ['exponent above decimal.js range', '1e9000000000000000001'],
    ['zero with an absurd exponent', '0e-99999'],
    ['negative number', -0.001],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['negative bigint', -1n],
    ['null', null],
    ['undefined', undefined],
    ['boolean', true],
    ['object', { cost: '0.1' }],
    ['array', ['0.1']],
  ])('rejects %s', (_name, input) => {
    expect(() => parseCostUsd(input)).toThrow(RangeError);
  });

  it('keeps 200 decimal places', () => {
    const text = `0.${'0'.repeat(199)}1`;
    expect(parseCostUsd(text)).toBe(text);
    expect(parseCostUsd('1e-200')).toBe(text);
    expect(parseCostUsd('100e-202')).toBe(text);
  });
});

describe('periodContaining', () => {
  const d = (iso: string) => new Date(iso);
  const period = (anchor: string, now: string) => {
    const p = periodContaining(d(anchor), d(now));
    return { start: p.start.toISOString(), end: p.end.toISOString() };
  };

  it('starts the first period at the anchor', () => {
    expect(period('2024-01-15T10:30:00.000Z', '2024-01-15T10:30:00.000Z')).toEqual({
      start: '2024-01-15T10:30:00.000Z',
      end: '2024-02-15T10:30:00.000Z',
    });
  });

  it('treats the end as exclusive at millisecond precision', () => {
    expect(period('2024-01-15T10:30:00.000Z', '2024-02-15T10:29:59.999Z')).toEqual({
      start: '2024-01-15T10:30:00.000Z',
      end: '2024-02-15T10:30:00.000Z',
    });
    expect(period('2024-01-15T10:30:00.000Z', '2024-02-15T10:30:00.000Z')).toEqual({
      start: '2024-02-15T10:30:00.000Z',
      end: '2024-03-15T10:30:00.000Z',
    });
  });

  it('returns the first period when now is before the anchor', () => {
    expect(period('2024-01-15T10:30:00.000Z', '2023-06-01T00:00:00.000Z')).toEqual({
      start: '2024-01-15T10:30:00.000Z',
      end: '2024-02-15T10:30:00.000Z',
    });
    expect(period('2024-01-15T10:30:00.000Z', '2024-01-15T10:29:59.999Z').start).toBe('2024-01-15T10:30:00.000Z');
  });

  it('rolls over the year', () => {
    expect(period('2023-12-15T00:00:00.000Z', '2024-01-20T00:00:00.000Z')).toEqual({
      start: '2024-01-15T00:00:00.000Z',
      end: '2024-02-15T00:00:00.000Z',
    });
    expect(period('2023-11-30T08:00:00.000Z', '2024-01-01T00:00:00.000Z')).toEqual({
      start: '2023-12-30T08:00:00.000Z',
      end: '2024-01-30T08:00:00.000Z',
    });
  });

  it('clamps a 31st anchor to short months, keeping the time of day, without drifting', () => {
    const anchor = '2023-01-31T12:00:00.000Z';
    expect(period(anchor, '2023-02-28T11:59:59.999Z')).toEqual({
      start: '2023-01-31T12:00:00.000Z',
      end: '2023-02-28T12:00:00.000Z',
    });
    expect(period(anchor, '2023-02-28T12:00:00.000Z')).toEqual({
      start: '2023-02-28T12:00:00.000Z',
      end: '2023-03-31T12:00:00.000Z', // from the original anchor: not Mar 28
    });
    expect(period(anchor, '2023-03-30T23:59:59.999Z').end).toBe('2023-03-31T12:00:00.000Z');
    expect(period(anchor, '2023-03-31T12:00:00.000Z')).toEqual({
      start: '2023-03-31T12:00:00.000Z',
      end: '2023-04-30T12:00:00.000Z',
    });
    expect(period(anchor, '2023-05-01T00:00:00.000Z')).toEqual({
      start: '2023-04-30T12:00:00.000Z',
      end: '2023-05-31T12:00:00.000Z',
    });
  });

  it('clamps to Feb 29 in leap years and Feb 28 otherwise', () => {
    expect(period('2024-01-31T00:00:00.000Z', '2024-02-29T00:00:00.000Z')).toEqual({
      start: '2024-02-29T00:00:00.000Z',
      end: '2024-03-31T00:00:00.000Z',
    });
    expect(period('2024-01-30T06:00:00.000Z', '2024-03-01T00:00:00.000Z')).toEqual({
      start: '2024-02-29T06:00:00.000Z',
      end: '2024-03-30T06:00:00.000Z',
    });
    // 1900 is not a leap year, 2000 is.
    expect(period('1900-01-29T00:00:00.000Z', '1900-02-01T00:00:00.000Z').end).toBe('1900-02-28T00:00:00.000Z');
    expect(period('2000-01-29T00:00:00.000Z', '2000-02-01T00:00:00.000Z').end).toBe('2000-02-29T00:00:00.000Z');
  });

  it('handles a Feb 29 anchor across years', () => {
    const anchor = '2024-02-29T09:15:00.000Z';
    expect(period(anchor, '2025-02-28T09:15:00.000Z')).toEqual({
      start: '2025-02-28T09:15:00.000Z',
      end: '2025-03-29T09:15:00.000Z',
    });
    expect(period(anchor, '2025-02-28T09:14:59.999Z')).toEqual({
      start: '2025-01-29T09:15:00.000Z',
      end: '2025-02-28T09:15:00.000Z',
    });
    expect(period(anchor, '2028-02-29T09:15:00.000Z')).toEqual({
      start: '2028-02-29T09:15:00.000Z',
      end: '2028-03-29T09:15:00.000Z',
    });
  });

  it('is exact many months later', () => {
    const anchor = '2020-01-31T23:59:59.999Z';
    expect(period(anchor, '2025-01-31T23:59:59.999Z')).toEqual({
      start: '2025-01-31T23:59:59.999Z',
      end: '2025-02-28T23:59:59.999Z',
    });
    expect(period(anchor, '2025-01-31T23:59:59.998Z')).toEqual({
      start: '2024-12-31T23:59:59.999Z',
      end: '2025-01-31T23:59:59.999Z',
    });
    expect(period('2000-03-10T00:00:00.000Z', '2099-12-25T00:00:00.000Z')).toEqual({
      start: '2099-12-10T00:00:00.000Z',
      end: '2100-01-10T00:00:00.000Z',
    });
  });

  it('does not mutate its arguments', () => {
    const anchor = d('2024-01-31T00:00:00.000Z');
    const now = d('2024-05-05T00:00:00.000Z');
    periodContaining(anchor, now);
    expect(anchor.toISOString()).toBe('2024-01-31T00:00:00.000Z');
    expect(now.toISOString()).toBe('2024-05-05T00:00:00.000Z');
  });

  it('rejects invalid dates', () => {
    expect(() => periodContaining(new Date(Number.NaN), new Date())).toThrow(RangeError);
    expect(() => periodContaining(new Date(), new Date('nope'))).toThrow(RangeError);
  });

  it('tiles time: contains now, periods are 28–31 days and each ends where the next starts (property)', () => {
    const date = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true });
    fc.assert(
      fc.property(date, date, (anchor, now) => {
        const { start, end } = periodContaining(anchor, now);
        if (now < anchor) expect(start.getTime()).toBe(anchor.getTime());
        else {
          expect(start.getTime()).toBeLessThanOrEqual(now.getTime());
          expect(now.getTime()).toBeLessThan(end.getTime());
        }
        const days = (end.getTime() - start.getTime()) / 86_400_000;
        expect(days).toBeGreaterThanOrEqual(28);
        expect(days).toBeLessThanOrEqual(31);
        expect(start.getUTCDate()).toBe(Math.min(anchor.getUTCDate(), daysInMonth(start)));
        expect(start.toISOString().slice(10)).toBe(anchor.toISOString().slice(10)); // time of day kept
        expect(periodContaining(anchor, end).start.getTime()).toBe(end.getTime());
      }),
    );
  });
});

function daysInMonth(date: Date): number {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
}

describe('applyCharge', () => {
  it.each([
    { balance: 500, credits: 40, debited: 40, shortfall: 0, balanceAfter: 460 },
    { balance: 40, credits: 40, debited: 40, shortfall: 0, balanceAfter: 0 },
    { balance: 10, credits: 40, debited: 10, shortfall: 30, balanceAfter: 0 },
    { balance: 0, credits: 5, debited: 0, shortfall: 5, balanceAfter: 0 },
    { balance: 100, credits: 0, debited: 0, shortfall: 0, balanceAfter: 100 },
    { balance: 0, credits: 0, debited: 0, shortfall: 0, balanceAfter: 0 },
  ])('balance $balance, charge $credits → $balanceAfter (shortfall $shortfall)', ({ balance, credits, ...expected }) => {
    expect(applyCharge(balance, credits)).toEqual(expected);
  });

  it.each([
    [-1, 10],
    [10, -1],
    [1.5, 1],
    [1, 0.5],
    [Number.NaN, 1],
    [1, Number.POSITIVE_INFINITY],
  ])('rejects balance %s / credits %s', (balance, credits) => {
    expect(() => applyCharge(balance, credits)).toThrow(RangeError);
  });

  it('never goes below zero and accounts for every credit (property)', () => {
    fc.assert(
      fc.property(fc.nat(1_000_000), fc.nat(1_000_000), (balance, credits) => {
        const r = applyCharge(balance, credits);
        expect(r.balanceAfter).toBeGreaterThanOrEqual(0);
        expect(r.debited + r.shortfall).toBe(credits);
        expect(r.balanceAfter).toBe(balance - r.debited);
      }),
    );
  });
});
