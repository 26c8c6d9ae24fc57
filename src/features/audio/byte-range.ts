/**
 * HTTP byte ranges (RFC 9110 §14) for serving stored audio, so a browser's audio element can
 * seek. Pure. One range per request: a multi-range request is answered with the whole body,
 * which the RFC allows and browsers never need otherwise.
 */

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

/**
 * - `{ kind: 'full' }`: no usable Range header (absent, not `bytes=`, malformed or several
 *   ranges): answer 200 with the whole body, as the RFC says to for a Range header it ignores.
 * - `{ kind: 'partial', range }`: answer 206 with `Content-Range: bytes start-end/size`.
 * - `{ kind: 'unsatisfiable' }`: answer 416 with `Content-Range: bytes * /size`.
 */
export type RangeDecision = { kind: 'full' } | { kind: 'partial'; range: ByteRange } | { kind: 'unsatisfiable' };

const SINGLE_RANGE = /^bytes[ \t]*=[ \t]*(\d*)[ \t]*-[ \t]*(\d*)[ \t]*$/i;

/**
 * `bytes=0-99` (first 100 bytes), `bytes=100-` (from byte 100 to the end), `bytes=-50` (the last
 * 50 bytes). An end past the last byte is clamped. A start at or past the size, or a suffix of
 * zero bytes, cannot be satisfied.
 */
export function decideRange(header: string | undefined, size: number): RangeDecision {
  if (header === undefined) return { kind: 'full' };
  const match = SINGLE_RANGE.exec(header.trim());
  if (!match) return { kind: 'full' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'full' };
  // Digits beyond the safe-integer range are treated as "very large", never as garbage.
  const toInt = (digits: string) => Math.min(Number(digits), Number.MAX_SAFE_INTEGER);

  if (first === '') {
    const suffix = toInt(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = toInt(first);
  if (last !== '' && toInt(last) < start) return { kind: 'full' }; // invalid syntax: ignored, per the RFC
  if (start >= size) return { kind: 'unsatisfiable' };
  const end = last === '' ? size - 1 : Math.min(toInt(last), size - 1);
  return { kind: 'partial', range: { start, end } };
}

export const contentRange = (range: ByteRange, size: number) => `bytes ${range.start}-${range.end}/${size}`;
export const unsatisfiedRange = (size: number) => `bytes */${size}`;

/**
 * Splits an inclusive byte range into consecutive pieces of at most `chunkSize` bytes, so a
 * large body is read and sent piece by piece instead of being held in memory whole.
 */
export function byteChunks(range: ByteRange, chunkSize: number): ByteRange[] {
  const chunks: ByteRange[] = [];
  for (let start = range.start; start <= range.end; start += chunkSize) {
    chunks.push({ start, end: Math.min(range.end, start + chunkSize - 1) });
  }
  return chunks;
}
