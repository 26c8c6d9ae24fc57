/**
 * Markup a translation must not bring in. Page clients put translated text back into the page,
 * some of them as HTML, so an answer that carries a tag, a comment or a Markdown link its source
 * did not have is refused: a model talked into it by an instruction hidden in page text would
 * otherwise plant a script, a tracking image or a phishing link in what the user reads.
 *
 * Markup here is what a browser or a Markdown renderer would act on: `<` followed by a letter,
 * `/`, `!` or `?` (a tag, end tag, comment or declaration, up to its `>`, or up to the next
 * space when it never closes), and `[text](target)` links and `![alt](src)` images. The
 * placeholders of placeholders.ts are not markup; their own check holds them to the
 * source. Markup the source carried (a page about HTML, say) may come back as often as it was
 * there, spelled the same (whitespace runs aside).
 */
import { isPlaceholder } from './placeholders.ts';

const MARKUP = /<[A-Za-z/!?][^<>]*>|<[A-Za-z/!?][^\s<>]*|!?\[[^\]\n]*\]\([^)\n]*\)/g;

type MarkupKind = 'an HTML tag' | 'an HTML comment or declaration' | 'a Markdown link or image';

function kindOf(token: string): MarkupKind {
  if (!token.startsWith('<')) return 'a Markdown link or image';
  return token.startsWith('<!') || token.startsWith('<?') ? 'an HTML comment or declaration' : 'an HTML tag';
}

function markupCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [raw] of text.matchAll(MARKUP)) {
    if (isPlaceholder(raw)) continue;
    const token = raw.replace(/\s+/g, ' ');
    counts.set(token, (counts.get(token) ?? 0) + 1);
  }
  return counts;
}

export type MarkupCheck = { ok: true } | { ok: false; reason: string };

/** Whether `translation` adds markup absent from `source`. The reason names the kind, never the text. */
export function checkMarkup(source: string, translation: string): MarkupCheck {
  const allowed = markupCounts(source);
  for (const [token, count] of markupCounts(translation)) {
    if (count > (allowed.get(token) ?? 0)) return { ok: false, reason: `adds ${kindOf(token)} absent from the source` };
  }
  return { ok: true };
}
