/**
 * Inline markup placeholders that page-translation clients put into item text so that links and
 * emphasis survive translation: paired or self-closing tags named letters + digits (`<b0>…</b0>`,
 * `<a12>…</a12>`, `<x3/>`) and numbered braces (`{0}`). A translation must carry exactly the
 * placeholders of its source, each as often, with every pair still opened before it is closed
 * and properly nested. Their order may change: word order differs between languages.
 */

const PLACEHOLDER = /<\/?[A-Za-z]+\d+\s*\/?>|\{\d+\}/g;
const WHOLE_PLACEHOLDER = new RegExp(`^(?:${PLACEHOLDER.source})$`);

export interface Placeholder {
  /** Canonical spelling (no inner whitespace), e.g. `<b0>`, `</b0>`, `<x3/>`, `{0}`. */
  token: string;
  kind: 'open' | 'close' | 'self' | 'brace';
  /** The tag name for tags (`b0`), the token itself for braces. */
  name: string;
}

/** Whether `text` is exactly one placeholder (e.g. `<b0>`, `</b0 >`, `{3}`). */
export function isPlaceholder(text: string): boolean {
  return WHOLE_PLACEHOLDER.test(text);
}

export function extractPlaceholders(text: string): Placeholder[] {
  return Array.from(text.matchAll(PLACEHOLDER), ([raw]) => {
    const token = raw.replace(/\s+/g, '');
    if (token.startsWith('{')) return { token, kind: 'brace' as const, name: token };
    const name = token.replace(/[</>]/g, '');
    const kind = token.startsWith('</') ? ('close' as const) : token.endsWith('/>') ? ('self' as const) : ('open' as const);
    return { token, kind, name };
  });
}

export type PlaceholderCheck = { ok: true } | { ok: false; reason: string };

/** Whether `translation` preserves the placeholders of `source` (see the module comment). */
export function checkPlaceholders(source: string, translation: string): PlaceholderCheck {
  const expected = countTokens(extractPlaceholders(source));
  const found = extractPlaceholders(translation);
  const actual = countTokens(found);
  for (const [token, count] of expected) {
    const got = actual.get(token) ?? 0;
    if (got < count) return { ok: false, reason: `placeholder ${token} missing` };
    if (got > count) return { ok: false, reason: `placeholder ${token} repeated` };
  }
  for (const token of actual.keys()) {
    if (!expected.has(token)) return { ok: false, reason: `placeholder ${token} not in the source` };
  }
  // Only hold the translation to nesting rules its source obeys.
  if (nestingError(extractPlaceholders(source)) !== null) return { ok: true };
  const error = nestingError(found);
  return error === null ? { ok: true } : { ok: false, reason: error };
}

function countTokens(placeholders: Placeholder[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { token } of placeholders) counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
}

function nestingError(placeholders: Placeholder[]): string | null {
  const open: string[] = [];
  for (const p of placeholders) {
    if (p.kind === 'open') open.push(p.name);
    else if (p.kind === 'close') {
      if (open.at(-1) !== p.name) return `placeholder ${p.token} does not close the innermost open tag`;
      open.pop();
    }
  }
  return open.length === 0 ? null : `placeholder <${open.at(-1)}> is never closed`;
}
