/**
 * Library listing rules: the opaque pagination cursor and what a capture text must look like.
 * Pure; no I/O. (The search pattern is built in SQL, library_contains_pattern: its wildcards can only
 * be escaped after the database has folded the query.)
 */
import { cleanCaptureText, countCodePoints, hasLetter } from './normalise.ts';

export const LIST_LIMIT_DEFAULT = 50;
export const LIST_LIMIT_MAX = 200;
export const CAPTURE_TEXT_MAX = 280;

/** Position after the last item of a page: newest first, so (createdAt, cardId) descending. */
export interface ListCursor {
  createdAt: Date;
  cardId: string;
}

/** 9999-12-31T23:59:59.999Z: the last instant with a four-digit year. */
const MAX_CURSOR_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Opaque to clients: base64url of `<epoch ms>.<cardId>`. */
export function encodeCursor(cursor: ListCursor): string {
  return Buffer.from(`${cursor.createdAt.getTime()}.${cursor.cardId}`, 'utf8').toString('base64url');
}

/** The cursor, or null when it is not one this service produced. */
export function decodeCursor(text: string): ListCursor | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(text)) return null;
  const match = /^(\d{1,15})\.(.+)$/.exec(Buffer.from(text, 'base64url').toString('utf8'));
  if (!match || !UUID.test(match[2]!)) return null;
  const createdAt = new Date(Number(match[1]));
  // Beyond year 9999 a Date is written with an expanded year ("+033658-…") that PostgreSQL
  // cannot read: no card is that new, and the query would fail as a 500.
  return createdAt.getTime() > MAX_CURSOR_TIME ? null : { createdAt, cardId: match[2]! };
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
