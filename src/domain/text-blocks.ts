/**
 * Which elements of a page are its text blocks: one rule for the extension, which translates a
 * page in place block by block, and the web app, which turns a pasted or dropped HTML fragment
 * into paragraphs to translate. Both read a block as one paragraph of prose, so both take the
 * innermost block-level elements and never read code, form fields, scripts or media.
 * Imports nothing, and reads only an element's tag name and children, so that it runs on plain
 * objects in the unit tests as well as on the DOM.
 */

/**
 * Block-level elements. The innermost of them are the blocks: a container (a list, a section, the
 * body itself) gives way to the blocks inside it, and is one block when it holds none, so a
 * fragment of inline text is one paragraph. PRE is here and in SKIPPED_ELEMENTS: never read, but
 * still a boundary, so that the element around a code listing is not taken whole with the code.
 */
export const BLOCK_ELEMENTS: ReadonlySet<string> = new Set([
  'P',
  'LI',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'BLOCKQUOTE',
  'TD',
  'TH',
  'DD',
  'DT',
  'FIGCAPTION',
  'CAPTION',
  'SUMMARY',
  'LEGEND',
  'DIV',
  'SECTION',
  'ARTICLE',
  'ASIDE',
  'HEADER',
  'FOOTER',
  'MAIN',
  'NAV',
  'UL',
  'OL',
  'DL',
  'TABLE',
  'THEAD',
  'TBODY',
  'TR',
  'FORM',
  'FIELDSET',
  'FIGURE',
  'DETAILS',
  'ADDRESS',
  'HR',
  'BODY',
  'PRE',
]);

/** Elements that hold no prose to translate: nothing inside them is read. */
export const SKIPPED_ELEMENTS: ReadonlySet<string> = new Set([
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'CODE',
  'PRE',
  'KBD',
  'SAMP',
  'TEXTAREA',
  'INPUT',
  'SELECT',
  'OPTION',
  'BUTTON',
  'SVG',
  'MATH',
  'CANVAS',
  'IFRAME',
  'OBJECT',
  'VIDEO',
  'AUDIO',
  'HEAD',
]);

/** What the rule reads of an element; a DOM Element is one. */
export interface BlockTree<E> {
  readonly tagName: string;
  readonly children: ArrayLike<E>;
}

/**
 * The blocks under `root` (itself included), in document order. `skip` adds what a client also
 * leaves alone (what a page marks as not to be translated, say); a skipped block-level element
 * still bounds the blocks around it.
 */
export function innermostBlocks<E extends BlockTree<E>>(root: E, skip: (element: E) => boolean = () => false): E[] {
  const isBlock = (element: E) => BLOCK_ELEMENTS.has(element.tagName.toUpperCase());
  const skipped = (element: E) => SKIPPED_ELEMENTS.has(element.tagName.toUpperCase()) || skip(element);
  const hasBlockInside = (element: E): boolean => {
    for (const child of Array.from(element.children)) {
      if (skipped(child)) {
        if (isBlock(child)) return true;
        continue;
      }
      if (isBlock(child) || hasBlockInside(child)) return true;
    }
    return false;
  };
  const found: E[] = [];
  const visit = (element: E) => {
    if (skipped(element)) return;
    if (isBlock(element) && !hasBlockInside(element)) {
      found.push(element);
      return;
    }
    for (const child of Array.from(element.children)) visit(child);
  };
  visit(root);
  return found;
}
