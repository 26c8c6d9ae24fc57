/**
 * Where the learner's expressions occur in a text, for underlining them on a page. Expressions
 * come normalised by the service (src/domain/normalise.ts: case-folded, quotes unified,
 * whitespace collapsed); the text is folded the same way, character by character, remembering
 * where each folded character came from, so that a match maps back to the page's own text.
 */

export interface KnownExpression {
  /** The card it belongs to: reported as met only with "Count when I meet my expressions" on. */
  cardId: string;
  /** Normalised as the service normalises captures. */
  text: string;
  translation: string | null;
}

const INVISIBLE = /[\u00AD\u200B\u2060]/u;
const SPACE = /\s/u;
const SINGLE_QUOTES = /[\u2018\u2019\u201A\u201B\u02BC\uFF07]/u;
const DOUBLE_QUOTES = /[\u201C\u201D\u201E\u201F\uFF02]/u;
const WORD = /[\p{L}\p{N}]/u;

function foldChar(char: string): string {
  if (SINGLE_QUOTES.test(char)) return "'";
  if (DOUBLE_QUOTES.test(char)) return '"';
  return char.toUpperCase().toLowerCase().replace(/ß/gu, 'ss');
}

/** The folded text and, for each of its UTF-16 units, the offset in `text` it came from. */
function fold(text: string): { folded: string; origin: number[] } {
  let folded = '';
  const origin: number[] = [];
  let offset = 0;
  for (const char of text) {
    const at = offset;
    offset += char.length;
    if (INVISIBLE.test(char)) continue;
    const piece = SPACE.test(char) ? (folded.endsWith(' ') ? '' : ' ') : foldChar(char);
    for (let i = 0; i < piece.length; i++) origin.push(at);
    folded += piece;
  }
  origin.push(offset);
  return { folded, origin };
}

export interface KnownMatch {
  start: number;
  end: number;
  expression: KnownExpression;
}

/** Whole-word occurrences in `text`, longest expressions first and never overlapping, in text order. */
export function findKnown(text: string, expressions: readonly KnownExpression[]): KnownMatch[] {
  const { folded, origin } = fold(text);
  const taken: KnownMatch[] = [];
  const byLength = expressions.filter((e) => e.text.length >= 2).sort((a, b) => b.text.length - a.text.length);
  for (const expression of byLength) {
    for (let at = folded.indexOf(expression.text); at !== -1; at = folded.indexOf(expression.text, at + 1)) {
      const end = at + expression.text.length;
      if (WORD.test(folded[at - 1] ?? '') || WORD.test(folded[end] ?? '')) continue;
      const match = { start: origin[at]!, end: origin[end]!, expression };
      if (taken.some((t) => match.start < t.end && t.start < match.end)) continue;
      taken.push(match);
    }
  }
  return taken.sort((a, b) => a.start - b.start);
}
