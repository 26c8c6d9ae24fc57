/**
 * Text normalisation for captures: what we store, and the key that decides "same expression".
 */
import { UNICODE_LETTER_RANGES } from './unicode-letters.ts';

/**
 * What JS `\s` matches (the Unicode space separators — NBSP, U+2000–U+200A, U+202F, U+3000, … —,
 * line and paragraph separators and the BOM) spelled out, for patterns that other regex engines
 * read the same way (the OpenAPI document's: JSON Schema validators in Rust, Python, …).
 * `String.prototype.trim` removes exactly these.
 */
const TRIMMED_SPACE = '\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';
/** Whitespace that collapses in captured text: the above and NEL (U+0085), a control char `\s` misses. */
const COLLAPSED_SPACE = `${TRIMMED_SPACE}\\u0085`;
/**
 * The whitespace runs that collapse to one space: two or more, or one that is not a plain space.
 * A single plain space is left alone, so a text with nothing else (most of them) is scanned and
 * not rebuilt.
 */
const WHITESPACE_RUN = new RegExp(`[${COLLAPSED_SPACE}]{2,}|[${COLLAPSED_SPACE.replace(' ', '')}]`, 'gu');

// Invisible characters that web copy-paste leaves inside words (soft hyphen, zero-width space,
// word joiner). They change nothing a reader sees, so they must not split the key. ZWJ/ZWNJ are
// kept: they are part of emoji sequences and of spelling in some scripts.
const INVISIBLE = /[\u00AD\u200B\u2060]/gu;

// Typographic quotes are a keyboard/autocorrect accident, not a different expression:
// "it’s" and "it's" are the same capture. Only the quote style is unified; the apostrophe
// itself stays, so "it's" and "its" remain different.
const SINGLE_QUOTES = /[\u2018\u2019\u201A\u201B\u02BC\uFF07]/gu;
const DOUBLE_QUOTES = /[\u201C\u201D\u201E\u201F\uFF02]/gu;

const PUNCTUATION_OR_SPACE = /^[\p{P}\s]$/u;

/** Trimmed, whitespace runs collapsed to one space, NFC. This is the text we store and show. */
export function cleanCaptureText(text: string): string {
  return text.normalize('NFC').replace(WHITESPACE_RUN, ' ').trim();
}

/**
 * The dedup key for cards and sentences: NFC, case-folded, whitespace collapsed, typographic
 * quotes unified, trailing punctuation ignored ("Break a leg!!" ≡ "  break  a LEG. ").
 * Leading and inner punctuation are kept.
 *
 * Case folding is `toUpperCase().toLowerCase()`: a cheap approximation of Unicode full case
 * folding that plain `toLowerCase` misses for, e.g., ß/ẞ → "ss" ("STRASSE" ≡ "straße"),
 * ligatures (ﬁ → "fi") and Greek sigma (σ and ς both come back in their contextual form).
 * NFC runs again afterwards because case mapping can leave decomposed sequences behind
 * (ǰ has no precomposed capital).
 *
 * A text made only of punctuation keeps it, so the key is empty only for blank input.
 */
export function normaliseExpression(text: string): string {
  const folded = text
    .normalize('NFC')
    .replace(INVISIBLE, '')
    .toUpperCase()
    .toLowerCase()
    .replace(/ß/gu, 'ss') // capital ẞ uppercases to itself, then lowercases to ß
    .normalize('NFC')
    .replace(SINGLE_QUOTES, "'")
    .replace(DOUBLE_QUOTES, '"')
    .replace(WHITESPACE_RUN, ' ')
    .trim();
  return stripTrailingPunctuation(folded) || folded;
}

// A backwards scan rather than /[\p{P}\s]+$/, which backtracks quadratically on long
// punctuation runs that are followed by a letter.
function stripTrailingPunctuation(text: string): string {
  const chars = Array.from(text);
  let end = chars.length;
  while (end > 0 && PUNCTUATION_OR_SPACE.test(chars[end - 1]!)) end -= 1;
  return chars.slice(0, end).join('');
}

/** Length as users and the API count it: code points, not UTF-16 units. */
export function countCodePoints(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/**
 * A letter of any script (Unicode \p{L}), spelled out as ranges: a pattern the API document states as is.
 * Marked pure so that a bundle that does not use it (the extension's content script) leaves out the 12 KB table.
 */
export const LETTER_PATTERN = /* @__PURE__ */ new RegExp(/* @__PURE__ */ letterClass(UNICODE_LETTER_RANGES), 'u');

/** Pairs of code points as a regex class, with the characters themselves (no escape every engine reads alike). */
function letterClass(pairs: readonly number[]): string {
  let body = '';
  for (let i = 0; i < pairs.length; i += 2) {
    const [first, last] = [String.fromCodePoint(pairs[i]!), String.fromCodePoint(pairs[i + 1]!)];
    body += first === last ? first : `${first}-${last}`;
  }
  return `[${body}]`;
}

/** Whether the text contains at least one letter in any script. */
export function hasLetter(text: string): boolean {
  return LETTER_PATTERN.test(text);
}

/**
 * The texts that `cleanCaptureText` leaves 1..max code points long, as one pattern for the API
 * document: a whitespace run inside the text counts as the one space it becomes, runs at either
 * end count nothing. (NFC is not a pattern: a decomposed text is judged by its raw code points.)
 */
export function cleanedLengthPattern(max: number): RegExp {
  const space = `[${COLLAPSED_SPACE}]`;
  const other = `[^${COLLAPSED_SPACE}]`;
  return new RegExp(`^${space}*${other}(?:${space}+(?=${other})|${other}){0,${max - 1}}${space}*$`, 'u');
}

/** The strings that `trim()` leaves 1..max code points long, as one pattern for the API document. */
export function trimmedLengthPattern(max: number): RegExp {
  const other = `[^${TRIMMED_SPACE}]`;
  const inner = max > 1 ? `(?:[\\s\\S]{0,${max - 2}}${other})?` : '';
  return new RegExp(`^[${TRIMMED_SPACE}]*${other}${inner}[${TRIMMED_SPACE}]*$`, 'u');
}
