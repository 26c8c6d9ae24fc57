import { isExtensionNode } from './inline-markup.ts';

/**
 * The page's text blocks worth translating: the innermost block-level elements with letters in
 * them. Code, preformatted text, form fields, editable areas, scripts, what the page marks as not
 * to be translated, and what is translated already are skipped.
 */

const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'CODE', 'PRE', 'KBD', 'SAMP', 'TEXTAREA', 'INPUT', 'SELECT', 'OPTION', 'BUTTON', 'SVG', 'MATH', 'CANVAS', 'IFRAME', 'OBJECT', 'VIDEO', 'AUDIO', 'HEAD']);
const BLOCKS = new Set([
  'P', 'LI', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'BLOCKQUOTE', 'TD', 'TH', 'DD', 'DT', 'FIGCAPTION', 'CAPTION', 'SUMMARY', 'LEGEND',
  'DIV', 'SECTION', 'ARTICLE', 'ASIDE', 'HEADER', 'FOOTER', 'MAIN', 'NAV', 'UL', 'OL', 'DL', 'TABLE', 'THEAD', 'TBODY', 'TR', 'FORM',
  'FIELDSET', 'FIGURE', 'DETAILS', 'ADDRESS', 'HR', 'BODY',
]);
/** A block longer than this is more likely a page's dump than prose; it stays as it is. */
const LONGEST_BLOCK = 4_000;
const LETTER = /\p{L}/u;

/** Marks a block once it is sent, so that no later pass sends it again. */
export const SEEN = 'data-lcs-block';

function skipped(element: Element): boolean {
  return SKIPPED.has(element.tagName.toUpperCase()) || isExtensionNode(element) || element.getAttribute('translate') === 'no'
    || element.classList.contains('notranslate') || (element instanceof HTMLElement && element.isContentEditable)
    || element.getAttribute('aria-hidden') === 'true' || (element instanceof HTMLElement && element.hidden === true);
}

const isBlock = (element: Element) => BLOCKS.has(element.tagName.toUpperCase());

function hasBlockInside(element: Element): boolean {
  for (const child of Array.from(element.children)) {
    if (skipped(child)) { if (isBlock(child) || child.tagName === 'PRE') return true; continue; }
    if (isBlock(child) || hasBlockInside(child)) return true;
  }
  return false;
}

/** The blocks under `root` (itself included) not yet seen, in document order. */
export function findBlocks(root: Element): Element[] {
  const found: Element[] = [];
  const visit = (element: Element) => {
    if (skipped(element) || element.hasAttribute(SEEN)) return;
    if (isBlock(element) && !hasBlockInside(element)) {
      const text = element.textContent ?? '';
      if (LETTER.test(text) && text.trim().length > 1 && text.length <= LONGEST_BLOCK) found.push(element);
      return;
    }
    for (const child of Array.from(element.children)) visit(child);
  };
  visit(root);
  return found;
}
