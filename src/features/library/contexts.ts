/**
 * A card's contexts: the sentences the learner met its expression in. Where the expression sits
 * in a sentence, matched as captures are deduplicated and searched (case, accents, typographic
 * quotes, invisible characters and whitespace folded), and which contexts a card keeps. Pure; no
 * I/O (src/features/library/context-store.ts stores them).
 */
import { CARD_CONTEXTS_MAX, CONTEXT_MAX } from '../../domain/limits.ts';
import { cleanCaptureText, countCodePoints, normaliseExpression } from '../../domain/normalise.ts';

/** Where the expression is in a context: code points of the cleaned sentence, `end` exclusive. */
export interface ContextMark {
  start: number;
  end: number;
}

const MARK = /^\p{M}$/u;
const WORD_CHAR = /^[\p{L}\p{N}\p{M}]$/u;
const INVISIBLE = /^[\u00AD\u200B\u2060]$/u;
const SINGLE_QUOTES = /^[\u2018\u2019\u201A\u201B\u02BC\uFF07]$/u;
const DOUBLE_QUOTES = /^[\u201C\u201D\u201E\u201F\uFF02]$/u;

/** One code point as matching sees it: accents stripped, case folded, quotes unified, invisibles gone. */
function foldCodePoint(c: string): string {
  if (INVISIBLE.test(c)) return '';
  if (SINGLE_QUOTES.test(c)) return "'";
  if (DOUBLE_QUOTES.test(c)) return '"';
  if (/^\s$/u.test(c)) return ' ';
  return c.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase().toLowerCase().replace(/ß/gu, 'ss').normalize('NFD').replace(/\p{M}/gu, '');
}

/** The folded text, and for each of its UTF-16 units the index of the code point it came from. */
function fold(chars: readonly string[]): { text: string; source: number[] } {
  let text = '';
  const source: number[] = [];
  chars.forEach((c, i) => {
    for (const unit of foldCodePoint(c)) {
      // A space after a space (an invisible between two) is one space, as in the dedup key.
      if (unit === ' ' && text.endsWith(' ')) continue;
      text += unit;
      for (let k = 0; k < unit.length; k++) source.push(i);
    }
  });
  return { text, source };
}

/**
 * Where `expression` (a capture text) occurs in `context` (already cleaned), or null. Trailing
 * punctuation of the expression does not count ("Break a leg!" is found in "break a leg, they
 * said"). An occurrence standing as whole words wins over one inside a longer word ("bank" in
 * "the bank of" rather than in "embankment"); either is a match.
 */
export function locateExpression(context: string, expression: string): ContextMark | null {
  const needle = fold(Array.from(normaliseExpression(cleanCaptureText(expression)))).text.trim();
  if (needle === '') return null;
  const chars = Array.from(context);
  const { text, source } = fold(chars);
  let first: ContextMark | null = null;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
    const start = source[at]!;
    let end = source[at + needle.length - 1]! + 1;
    while (end < chars.length && MARK.test(chars[end]!)) end++;
    const mark = { start, end };
    const whole = (start === 0 || !WORD_CHAR.test(chars[start - 1]!)) && (end === chars.length || !WORD_CHAR.test(chars[end]!));
    if (whole) return mark;
    first ??= mark;
  }
  return first;
}

/** A context ready to store: the cleaned sentence, its dedup key and the expression's place in it. */
export interface PlacedContext {
  text: string;
  key: string;
  mark: ContextMark;
}

/**
 * Checks a context against the expression(s) it must contain, trying each in turn (a card's text,
 * then its corrected text). Returns the stored form, or why it is refused (a sentence for the
 * problem's detail).
 */
export function placeContext(rawContext: string, expressions: readonly string[]): PlacedContext | { problem: string } {
  const text = cleanCaptureText(rawContext);
  const length = countCodePoints(text);
  if (length === 0) return { problem: 'context must not be empty' };
  if (length > CONTEXT_MAX) return { problem: `context must be at most ${CONTEXT_MAX} characters (got ${length})` };
  for (const expression of expressions) {
    const mark = locateExpression(text, expression);
    if (mark) return { text, key: normaliseExpression(text), mark };
  }
  return { problem: `context must contain the expression “${expressions[0]}” (case, accents and spacing may differ)` };
}

/** A stored context, as served: the sentence and where the expression is in it. */
export interface CardContextView {
  contextId: string;
  text: string;
  start: number;
  end: number;
  createdAt: string;
  /** Where the learner met it (a video at that second), when their extension was asked to keep it. */
  sourceUrl: string | null;
}

/** The sentence in three parts around the expression (code points): what a page shows and a cloze hides. */
export function contextParts(text: string, mark: ContextMark): { before: string; expression: string; after: string } {
  const chars = Array.from(text);
  return { before: chars.slice(0, mark.start).join(''), expression: chars.slice(mark.start, mark.end).join(''), after: chars.slice(mark.end).join('') };
}

/**
 * Which of a card's contexts stay when one more would pass the cap: the first one (the sentence
 * the card was captured from) and the newest others, CARD_CONTEXTS_MAX in all. `ordered` is
 * oldest first; returns the ids to drop.
 */
export function contextsToDrop(ordered: readonly { id: string }[], max = CARD_CONTEXTS_MAX): string[] {
  if (ordered.length <= max) return [];
  return ordered.slice(1, ordered.length - (max - 1)).map((c) => c.id);
}
