import { findKnown } from '../shared/known-match.ts';
import type { KnownExpression } from '../shared/messages.ts';
import { isExtensionNode } from './inline-markup.ts';

/**
 * Underlines the learner's library expressions in a block's own text (never in the translation
 * under it), with the card's translation on hover. Matching happens here, in the page: the
 * page's text is not sent anywhere for it.
 */
export function markKnown(block: Element, expressions: readonly KnownExpression[]): number {
  if (expressions.length === 0) return 0;
  const texts: Text[] = [];
  const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT, {
    acceptNode: (node) =>
      node instanceof Element && (isExtensionNode(node) || node.classList.contains('lcs-known') || ['CODE', 'PRE', 'KBD', 'SAMP'].includes(node.tagName))
        ? NodeFilter.FILTER_REJECT
        : NodeFilter.FILTER_ACCEPT,
  });
  for (let node = walker.nextNode(); node; node = walker.nextNode()) if (node instanceof Text) texts.push(node);
  let marked = 0;
  for (const text of texts) {
    // From the last match back, so that earlier offsets stay valid as the node is split.
    for (const { start, end, expression } of findKnown(text.data, expressions).reverse()) {
      const range = document.createRange();
      range.setStart(text, start);
      range.setEnd(text, end);
      const mark = document.createElement('mark');
      mark.className = 'lcs-known';
      mark.title = expression.translation ?? 'In your library (translation on its way)';
      range.surroundContents(mark);
      marked++;
    }
  }
  return marked;
}
