// A block's inline markup as the service's placeholders, and back: an inline element becomes a
// numbered pair (`<a0>…</a0>` for a link, `<b1>…</b1>` for bold, …) around its translated text,
// and what must not be translated (inline code, a line break) a numbered brace (`{2}`). The
// translation is then built of *fresh* elements: a tag and, for a link, its address; never a copy
// of a page node, so no form control, id, handler or attribute of the page is ever duplicated.
// Controls, media, SVG, scripts, editable and ARIA-hidden parts are not sent and not shown.

// Nodes the extension put into the page (translations): never read as page content.
export const ownNodes = new WeakSet<Node>();
export const isExtensionNode = (node: Node) => ownNodes.has(node);

// Inline elements shown as they are (their text, in a fresh element of the same kind), never translated.
const VERBATIM = new Set(['CODE', 'KBD', 'SAMP', 'VAR', 'TT']);
// Elements left out of the translation altogether: controls, media, embedded documents, scripts.
const LEFT_OUT = new Set([
  'IMG',
  'SVG',
  'MATH',
  'INPUT',
  'SELECT',
  'TEXTAREA',
  'BUTTON',
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'CANVAS',
  'VIDEO',
  'AUDIO',
  'IFRAME',
  'OBJECT',
  'EMBED',
  'PICTURE',
  'WBR',
  'OUTPUT',
  'METER',
  'PROGRESS',
  'DATALIST',
  'OPTION',
]);
const PAIR_NAMES: Record<string, string> = { A: 'a', B: 'b', STRONG: 'b', I: 'i', EM: 'i', U: 'u', MARK: 'm', Q: 'q' };
// The element each pair is rebuilt as.
const REBUILT: Record<string, string> = { A: 'a', B: 'b', STRONG: 'strong', I: 'i', EM: 'em', U: 'u', MARK: 'mark', Q: 'q' };
const PLACEHOLDER = /<(\/?)([a-z]+)(\d+)>|\{(\d+)\}/g;

// What each placeholder number stands for in the translation.
export type Piece = { kind: 'pair'; tag: string; href?: string } | { kind: 'verbatim'; tag: string; text: string } | { kind: 'break' };

export interface SerialisedBlock {
  text: string;
  pieces: Piece[];
}

function leftOut(element: Element): boolean {
  return (
    LEFT_OUT.has(element.tagName.toUpperCase()) ||
    element.getAttribute('aria-hidden') === 'true' ||
    (element instanceof HTMLElement && (element.hidden === true || element.isContentEditable)) ||
    element.getAttribute('role') === 'button'
  );
}

export function serialiseBlock(block: Element): SerialisedBlock {
  const pieces: Piece[] = [];
  const walk = (parent: Node): string =>
    Array.from(parent.childNodes, (node): string => {
      if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? '';
      if (!(node instanceof Element) || isExtensionNode(node) || leftOut(node)) return '';
      const tag = node.tagName.toUpperCase();
      if (tag === 'BR') return `{${pieces.push({ kind: 'break' }) - 1}}`;
      if (VERBATIM.has(tag) || node.getAttribute('translate') === 'no')
        return `{${pieces.push({ kind: 'verbatim', tag: VERBATIM.has(tag) ? tag.toLowerCase() : 'span', text: node.textContent ?? '' }) - 1}}`;
      const href = node instanceof HTMLAnchorElement ? safeHref(node) : undefined;
      const n = pieces.push({ kind: 'pair', tag: REBUILT[tag] ?? 'span', ...(href ? { href } : {}) }) - 1;
      const name = PAIR_NAMES[tag] ?? 's';
      return `<${name}${n}>${walk(node)}</${name}${n}>`;
    }).join('');
  return { text: walk(block).replace(/\s+/g, ' ').trim(), pieces };
}

// A link's address when it leads to a page (never `javascript:` or the like).
function safeHref(link: HTMLAnchorElement): string | undefined {
  try {
    const url = new URL(link.href);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

// The translation as fresh nodes. A placeholder the block never had stays as text.
export function restoreTranslation(translation: string, pieces: readonly Piece[]): DocumentFragment {
  const fragment = document.createDocumentFragment();
  const open: Node[] = [fragment];
  let last = 0;
  const current = () => open.at(-1)!;
  for (const match of translation.matchAll(PLACEHOLDER)) {
    current().appendChild(document.createTextNode(translation.slice(last, match.index)));
    last = match.index + match[0].length;
    const [, closing, , number, brace] = match;
    const piece = pieces[Number(number ?? brace)];
    if (!piece || (brace !== undefined) === (piece.kind === 'pair')) current().appendChild(document.createTextNode(match[0]));
    else if (piece.kind === 'break') current().appendChild(document.createElement('br'));
    else if (piece.kind === 'verbatim') {
      const element = document.createElement(piece.tag);
      element.textContent = piece.text;
      current().appendChild(element);
    } else if (closing) {
      if (open.length > 1) open.pop();
    } else {
      const element = document.createElement(piece.tag);
      if (piece.href && element instanceof HTMLAnchorElement) element.href = piece.href;
      open.push(current().appendChild(element));
    }
  }
  current().appendChild(document.createTextNode(translation.slice(last)));
  return fragment;
}
