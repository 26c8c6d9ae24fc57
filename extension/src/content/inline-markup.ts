/**
 * A block's inline markup as the service's placeholders, and back: an inline element becomes a
 * numbered pair (`<a0>…</a0>` for a link, `<b1>…</b1>` for bold, …) around its translated text,
 * and what must not be translated (inline code, a line break, an image) a numbered brace (`{2}`)
 * that comes back as the very node. The service holds the translation to the same placeholders.
 */

/** Inline elements kept whole and untranslated (so are editable ones and those marked translate="no"). */
const KEPT = new Set([
  'CODE',
  'KBD',
  'SAMP',
  'VAR',
  'BR',
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
  'CANVAS',
  'VIDEO',
  'AUDIO',
  'IFRAME',
  'OBJECT',
  'PICTURE',
  'WBR',
]);
const PAIR_NAMES: Record<string, string> = { A: 'a', B: 'b', STRONG: 'b', I: 'i', EM: 'i', U: 'u', MARK: 'm', Q: 'q' };
const PLACEHOLDER = /<(\/?)([a-z]+)(\d+)>|\{(\d+)\}/g;

export interface SerialisedBlock {
  text: string;
  /** The original node of each placeholder number. */
  nodes: Node[];
}

export function serialiseBlock(block: Element): SerialisedBlock {
  const nodes: Node[] = [];
  const walk = (parent: Node): string =>
    Array.from(parent.childNodes, (node): string => {
      if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? '';
      if (!(node instanceof Element) || isExtensionNode(node)) return '';
      const n = nodes.push(node) - 1;
      if (KEPT.has(node.tagName.toUpperCase()) || node.getAttribute('translate') === 'no' || (node instanceof HTMLElement && node.isContentEditable))
        return `{${n}}`;
      const name = PAIR_NAMES[node.tagName.toUpperCase()] ?? 's';
      return `<${name}${n}>${walk(node)}</${name}${n}>`;
    }).join('');
  return { text: walk(block).replace(/\s+/g, ' ').trim(), nodes };
}

/**
 * The translation as nodes: each pair re-creates its element (a shallow copy: a link keeps its
 * address), each brace is a copy of its node. A placeholder the block never had stays as text.
 */
export function restoreTranslation(translation: string, nodes: readonly Node[]): DocumentFragment {
  const fragment = document.createDocumentFragment();
  const open: Node[] = [fragment];
  let last = 0;
  const current = () => open.at(-1)!;
  for (const match of translation.matchAll(PLACEHOLDER)) {
    current().appendChild(document.createTextNode(translation.slice(last, match.index)));
    last = match.index + match[0].length;
    const [, closing, , number, brace] = match;
    const node = nodes[Number(number ?? brace)];
    if (!node) current().appendChild(document.createTextNode(match[0]));
    else if (brace !== undefined) current().appendChild(copyOf(node, true));
    else if (closing) {
      if (open.length > 1) open.pop();
    } else open.push(current().appendChild(copyOf(node, false)));
  }
  current().appendChild(document.createTextNode(translation.slice(last)));
  return fragment;
}

/** A copy for the translation: ids stay unique on the page, and only the original is editable. */
function copyOf(node: Node, deep: boolean): Node {
  const copy = node.cloneNode(deep);
  if (copy instanceof Element) {
    for (const element of [copy, ...Array.from(copy.querySelectorAll('[id], [contenteditable]'))]) {
      element.removeAttribute('id');
      element.removeAttribute('contenteditable');
    }
  }
  return copy;
}

/** What the extension itself put into the page (translations), never page content. */
export const isExtensionNode = (node: Element) => node.classList.contains('lcs-translation') || node.tagName === 'LCS-UI';
