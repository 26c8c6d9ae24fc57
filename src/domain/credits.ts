/**
 * Credit arithmetic: converting provider cost (USD) to integer credits, monthly periods and
 * debiting a balance. Pure functions; money never touches a binary float.
 */
import { Decimal } from 'decimal.js';

export type ChargeKind = 'capture_preparation' | 'work' | 'audio' | 'page_translation' | 'sentence_translation';
import { monthlyAllowance, type Plan } from './plans.ts';

export { monthlyAllowance, type Plan };

export const CREDITS_PER_USD = 1000;

/** Larger costs are treated as garbage: it keeps every credit amount a safe integer. */
export const MAX_COST_USD = '1000000';
/** Bounds the plain text we expand a cost into, and so the digits every product carries. */
const MAX_COST_DECIMAL_PLACES = 200;

/**
 * The Decimal every money computation uses: costs, prices, cost ceilings and credits.
 * decimal.js rounds every arithmetic result to `precision` significant digits (20 by default),
 * which would silently drop the tail of a long cost before `ceil`. Parsed costs have at most
 * ~210 significant digits, so 1000 keeps every product here exact.
 */
export const ExactDecimal = Decimal.clone({ precision: 1000, rounding: Decimal.ROUND_HALF_UP });

const COST_TEXT = /^\d+(?:\.\d+)?(?:[eE]([+-]?\d+))?$/;
// decimal.js silently turns exponents beyond its range into 0 or Infinity; 0 would make a
// positive cost free. Anything this far out is garbage anyway.
const MAX_EXPONENT = 1000;

/**
 * Validates a provider cost and returns the same value as plain decimal text (no exponent, no
 * digit lost). Accepts decimal text (`"0.0004"`, `"5e-7"`) or a finite JS number (providers send
 * JSON numbers; their shortest round-trip text is what we keep). Throws a RangeError on anything
 * else, including negatives, NaN, Infinity, values above MAX_COST_USD and absurd exponents.
 */
export function parseCostUsd(value: unknown): string {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError('cost must be a finite number');
    text = String(Object.is(value, -0) ? 0 : value);
  } else if (typeof value === 'bigint') {
    text = value.toString();
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    throw new RangeError('cost must be a decimal string or number');
  }
  const match = COST_TEXT.exec(text);
  if (!match) throw new RangeError(`cost is not a non-negative decimal: ${JSON.stringify(text.slice(0, 40))}`);
  if (match[1] !== undefined && Math.abs(Number(match[1])) > MAX_EXPONENT) {
    throw new RangeError('cost exponent out of range');
  }
  const cost = new ExactDecimal(text);
  if (cost.gt(MAX_COST_USD)) throw new RangeError(`cost exceeds ${MAX_COST_USD} USD`);
  if (cost.decimalPlaces() > MAX_COST_DECIMAL_PLACES) {
    throw new RangeError(`cost has more than ${MAX_COST_DECIMAL_PLACES} decimal places`);
  }
  return cost.toFixed();
}

/** Credits for one provider call, by its kind's formula (the API reference states each). */
export function creditsForCost(kind: ChargeKind, providerCostUsd: string): number {
  const cost = new ExactDecimal(parseCostUsd(providerCostUsd));
  if (cost.isZero()) return 0;
  let credits: Decimal;
  switch (kind) {
    case 'capture_preparation':
    case 'work':
      credits = cost.times(100 * CREDITS_PER_USD).ceil();
      break;
    case 'audio':
      credits = cost.times(5 * CREDITS_PER_USD).ceil();
      break;
    case 'page_translation':
    case 'sentence_translation':
      // The cost itself is rounded (to 1/10 cent) before the multiplier, not the credits.
      credits = cost.toDecimalPlaces(3, Decimal.ROUND_HALF_UP).times(3 * CREDITS_PER_USD);
      break;
    default: {
      const unknownKind: never = kind;
      throw new RangeError(`unknown charge kind: ${String(unknownKind)}`);
    }
  }
  // A positive cost is never free, however much rounding shrank it.
  return Math.max(1, credits.toNumber());
}

/** A billing period, [start, end). */
export interface Period {
  start: Date;
  end: Date;
}

/**
 * Start of period `k`: the anchor moved `k` calendar months (UTC), clamped to the month's last day.
 * Always computed from the original anchor so a Jan 31 anchor gives Feb 28 then Mar 31, not Mar 28.
 */
function periodStart(anchor: Date, k: number): Date {
  const year = anchor.getUTCFullYear();
  const month = anchor.getUTCMonth() + k; // Date.UTC normalises month overflow into the year
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(anchor.getUTCDate(), lastDay);
  return new Date(Date.UTC(year, month, day, anchor.getUTCHours(), anchor.getUTCMinutes(), anchor.getUTCSeconds(), anchor.getUTCMilliseconds()));
}

/** The monthly period (anchored at e.g. signup or plan change) that contains `now`. */
export function periodContaining(anchor: Date, now: Date): Period {
  if (Number.isNaN(anchor.getTime()) || Number.isNaN(now.getTime())) {
    throw new RangeError('invalid date');
  }
  const monthsApart = (now.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (now.getUTCMonth() - anchor.getUTCMonth());
  // Period k starts inside calendar month anchor+k, so `now` is in period monthsApart or the one before.
  let k = monthsApart;
  if (periodStart(anchor, k) > now) k -= 1;
  if (k < 0) k = 0; // before the anchor: the first period
  return { start: periodStart(anchor, k), end: periodStart(anchor, k + 1) };
}

/** Debits `credits` from `balance` without going below zero; what could not be paid is the shortfall. */
export function applyCharge(balance: number, credits: number): { debited: number; shortfall: number; balanceAfter: number } {
  if (!Number.isSafeInteger(balance) || balance < 0) throw new RangeError('balance must be a non-negative integer');
  if (!Number.isSafeInteger(credits) || credits < 0) throw new RangeError('credits must be a non-negative integer');
  const debited = Math.min(balance, credits);
  return { debited, shortfall: credits - debited, balanceAfter: balance - debited };
}
