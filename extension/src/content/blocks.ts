import { innermostBlocks } from '../../../src/domain/text-blocks.ts';
import { isExtensionNode } from './inline-markup.ts';

// The page's text blocks worth translating: the innermost block-level elements with letters in
// them. Code, preformatted text, form fields, editable areas, scripts, what the page marks as not
// to be translated or hides from assistive technology, the site's banner, navigation and menus
// (left as they are, so a header keeps its height), and what is tracked already are skipped. Nothing is written into the
// page to remember a block: the caller's `tracked` says which it has.

// A block longer than this is more likely a page's dump than prose; it stays as it is.
const LONGEST_BLOCK = 4_000;
const LETTER = /\p{L}/u;
// Roles whose text is controls, not prose.
const CONTROL_ROLES = new Set(['navigation', 'menu', 'menubar', 'toolbar', 'tablist', 'button', 'listbox', 'combobox', 'tree', 'grid']);

// What this page leaves alone beyond the elements that hold no prose.
function skipped(element: Element, tracked: (element: Element) => boolean): boolean {
  return (
    isExtensionNode(element) ||
    tracked(element) ||
    element.tagName === 'NAV' ||
    element.tagName === 'MENU' ||
    isSiteBanner(element) ||
    CONTROL_ROLES.has(element.getAttribute('role') ?? '') ||
    element.getAttribute('translate') === 'no' ||
    element.classList.contains('notranslate') ||
    (element instanceof HTMLElement && element.isContentEditable) ||
    element.getAttribute('aria-hidden') === 'true' ||
    (element instanceof HTMLElement && element.hidden === true)
  );
}

// A site's banner (its header with the name and menus, not an article's header): left as it is, so it keeps its height.
function isSiteBanner(element: Element): boolean {
  return element.getAttribute('role') === 'banner' || (element.tagName === 'HEADER' && !element.parentElement?.closest('article, main, section, aside'));
}

// The blocks under `root` (itself included) not yet tracked, in document order.
export function findBlocks(root: Element, tracked: (element: Element) => boolean): Element[] {
  return innermostBlocks(root, (element) => skipped(element, tracked)).filter((block) => {
    const text = block.textContent ?? '';
    return LETTER.test(text) && text.trim().length > 1 && text.length <= LONGEST_BLOCK;
  });
}

// How a block's translation is set: a heading's smaller, a cell's compact, the rest as prose.
export function kindOf(block: Element): 'heading' | 'cell' | 'prose' {
  if (/^H[1-6]$/.test(block.tagName)) return 'heading';
  if (block.tagName === 'TD' || block.tagName === 'TH') return 'cell';
  return 'prose';
}
