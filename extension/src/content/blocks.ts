import { innermostBlocks } from '../../../src/domain/text-blocks.ts';
import { isExtensionNode } from './inline-markup.ts';

/**
 * The page's text blocks worth translating: the innermost block-level elements with letters in
 * them. Code, preformatted text, form fields, editable areas, scripts, what the page marks as not
 * to be translated, and what is translated already are skipped.
 */

/** A block longer than this is more likely a page's dump than prose; it stays as it is. */
const LONGEST_BLOCK = 4_000;
const LETTER = /\p{L}/u;

/** Marks a block once it is sent, so that no later pass sends it again. */
export const SEEN = 'data-lcs-block';

/** What this page leaves alone beyond the elements that hold no prose; a seen element is always a block. */
function skipped(element: Element): boolean {
  return (
    isExtensionNode(element) ||
    element.hasAttribute(SEEN) ||
    element.getAttribute('translate') === 'no' ||
    element.classList.contains('notranslate') ||
    (element instanceof HTMLElement && element.isContentEditable) ||
    element.getAttribute('aria-hidden') === 'true' ||
    (element instanceof HTMLElement && element.hidden === true)
  );
}

/** The blocks under `root` (itself included) not yet seen, in document order. */
export function findBlocks(root: Element): Element[] {
  return innermostBlocks(root, skipped).filter((block) => {
    const text = block.textContent ?? '';
    return LETTER.test(text) && text.trim().length > 1 && text.length <= LONGEST_BLOCK;
  });
}
