/**
 * Library listing rules: the opaque pagination cursor and what a capture text must look like.
 * Pure; no I/O. (The search pattern is built in SQL, library_contains_pattern: its wildcards can only
 * be escaped after the database has folded the query.)
 */
import { CAPTURE_TEXT_MAX } from '../../domain/limits.ts';
import { cleanCaptureText, countCodePoints, hasLetter } from '../../domain/normalise.ts';

/** Position after the last item of a page: newest first, so (createdAt, cardId) descending. */
export interface ListCursor {
  createdAt: Date;
  cardId: string;
}

/** 9999-12-31T23:59:59.999Z: the last instant with a four-digit year. */
const MAX_CURSOR_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * Opaque to clients: base64url of 24 bytes, the position's epoch milliseconds (8 bytes, big-endian)
 * and its card id (16 bytes). So every string of the pattern is a position: the document states
 * all there is to know, and no cursor of the right shape is refused.
 */
export const CURSOR_PATTERN = /^[A-Za-z0-9_-]{32}$/;

export function encodeCursor(cursor: ListCursor): string {
  const bytes = Buffer.alloc(24);
  bytes.writeBigUInt64BE(BigInt(cursor.createdAt.getTime()), 0);
  Buffer.from(cursor.cardId.replaceAll('-', ''), 'hex').copy(bytes, 8);
  return bytes.toString('base64url');
}

/** The position a cursor names, or null when it does not have the cursor's shape. */
export function decodeCursor(text: string): ListCursor | null {
  if (!CURSOR_PATTERN.test(text)) return null;
  const bytes = Buffer.from(text, 'base64url');
  // Beyond year 9999 a Date is written with an expanded year ("+033658-…") that PostgreSQL cannot
  // read; no card is that new, so such a position is the same as the last instant: the first page.
  const time = bytes.readBigUInt64BE(0);
  const createdAt = new Date(time > BigInt(MAX_CURSOR_TIME) ? MAX_CURSOR_TIME : Number(time));
  const hex = bytes.subarray(8).toString('hex');
  const cardId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { createdAt, cardId };
}

/** Why a capture text is refused, or null when it is acceptable (judged after cleaning). */
export function captureTextProblem(text: string): string | null {
  const cleaned = cleanCaptureText(text);
  const length = countCodePoints(cleaned);
  if (length === 0) return 'must not be empty';
  if (length > CAPTURE_TEXT_MAX) return `must be at most ${CAPTURE_TEXT_MAX} characters (got ${length})`;
  if (!hasLetter(cleaned)) return 'must contain at least one letter';
  return null;
}
