// Pure rules of the sentence upload: the lines of a paste, and what each line's answer means.
import { SENTENCE_MAX_CHARS } from '../../src/domain/limits.ts';

/** The sentences of a paste: one per non-empty line, trimmed. */
export const linesOf = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

/** A line too long for the service (counted in code points), said before anything is sent. */
export const tooLong = (line: string) => Array.from(line).length > SENTENCE_MAX_CHARS;

export type LineState =
  | { kind: 'waiting' }
  | { kind: 'sending' }
  | { kind: 'saved'; sentenceId: string }
  | { kind: 'duplicate' }
  | { kind: 'no-credits' }
  | { kind: 'busy'; attempt: number }
  | { kind: 'refused'; message: string };

/** A line is settled once the service has its answer and nothing more is tried for it. */
export const settled = (state: LineState) => !['waiting', 'sending', 'busy'].includes(state.kind);

/** Retries of a line the service asked to slow down for (429), and the wait before each. */
export const BUSY_RETRIES = 3;
export const busyWaitMs = (attempt: number) => 2_000 * attempt;
