import { Decimal } from 'decimal.js';

/**
 * JSON parsing that never lets a number pass through a binary double: provider costs are
 * converted into credits with exact decimal arithmetic, so `0.00012345678901234567890` must
 * survive as written. Every JSON number in the result is a string holding its decimal text.
 */
export function parseJsonExact(text: string): unknown {
  // Node >= 21 hands the reviver the source text of primitives (`context.source`).
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) => {
    if (typeof value !== 'number') return value;
    return toPlainDecimal(context?.source ?? String(value));
  });
}

/** `1.5e-7` → `0.00000015`; text without an exponent is kept verbatim (trailing zeros too). */
export function toPlainDecimal(numberText: string): string {
  const text = numberText.trim();
  if (!/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text)) {
    throw new Error('Not a decimal number literal');
  }
  return /[eE]/.test(text) ? new Decimal(text).toFixed() : text;
}

/** A JSON object (not an array, not null): the shape every provider answer and schema node is read as. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
