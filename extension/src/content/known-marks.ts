import { findKnown } from '../shared/known-match.ts';
import type { KnownExpression } from '../shared/messages.ts';
import { isExtensionNode } from './inline-markup.ts';
import type { Underline } from './ui.ts';

// The learner's library expressions in a block's own text (never in the translation under it),
// as ranges for the extension's layer to underline, with the card's translation for the hover
// card. Nothing is written into the page (no mark, no title): a page cannot list which of its
// expressions the learner knows. Matching happens here: the page's text is not sent for it. The
// cards found are what "Count when I meet my expressions" may report (their ids only).
export function knownIn(block: Element, expressions: readonly KnownExpression[]): { underlines: Underline[]; cardIds: Set<string> } {
  const found: Underline[] = [];
  const cardIds = new Set<string>();
  if (expressions.length === 0) return { underlines: found, cardIds };
  const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT, {
    acceptNode: (node) =>
      node instanceof Element && (isExtensionNode(node) || ['CODE', 'PRE', 'KBD', 'SAMP', 'SCRIPT', 'STYLE'].includes(node.tagName))
        ? NodeFilter.FILTER_REJECT
        : NodeFilter.FILTER_ACCEPT,
  });
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!(node instanceof Text)) continue;
    for (const { start, end, expression } of findKnown(node.data, expressions)) {
      const range = document.createRange();
      range.setStart(node, start);
      range.setEnd(node, end);
      found.push({ range, label: expression.translation ?? 'In your library (its translation is on its way)' });
      cardIds.add(expression.cardId);
    }
  }
  return { underlines: found, cardIds };
}
