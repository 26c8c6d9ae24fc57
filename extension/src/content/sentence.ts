import { CONTEXT_MAX } from '../../../src/domain/limits.ts';
import { cleanCaptureText, countCodePoints } from '../../../src/domain/normalise.ts';
import { isExtensionNode } from './inline-markup.ts';

// The sentence around a selection, for the opt-in "Send the sentence around my selection": the
// text of the selection's block (the page's own text only: never a translation or anything of the
// extension's), cut to the sentence(s) the selection spans, and when that is longer than the
// service takes (CONTEXT_MAX), to a window of whole words around the selection. The service worker
// decides whether it is sent at all (the setting is in storage a content script cannot read) and
// checks that it holds the expression as the service requires.
export function sentenceAround(range: Range): string | null {
  const block = blockOf(range.commonAncestorContainer);
  if (!block) return null;
  const { text: source, start, end } = blockText(block, range);
  if (start === null || end === null || end <= start) return null;
  // A page's source breaks lines inside a paragraph, which the reader sees as spaces but the
  // segmenter takes for sentence ends. One space for each whitespace unit keeps the offsets.
  const text = source.replace(/\s/gu, ' ');
  const sentences = [...new Intl.Segmenter('en', { granularity: 'sentence' }).segment(text)];
  const first = sentences.findLast((s) => s.index <= start) ?? sentences[0];
  const last = sentences.findLast((s) => s.index < end) ?? first;
  if (!first || !last) return null;
  const from = first.index;
  const to = last.index + last.segment.length;
  const sentence = cleanCaptureText(text.slice(from, to));
  if (countCodePoints(sentence) <= CONTEXT_MAX) return sentence;
  return windowAround(text.slice(from, start), text.slice(start, end), text.slice(end, to));
}

const INLINE = /^(inline|contents)/;

// The nearest ancestor laid out as a block (a paragraph, a cell, a list item…), the extension's own excepted.
function blockOf(node: Node): Element | null {
  for (let at: Node | null = node; at && at !== document.documentElement; at = at.parentNode) {
    if (!(at instanceof Element)) continue;
    if (isExtensionNode(at)) return null;
    if (at === document.body || !INLINE.test(getComputedStyle(at).display)) return at;
  }
  return null;
}

const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);

// The block's own text, and where the selection starts and ends in it.
function blockText(block: Element, range: Range): { text: string; start: number | null; end: number | null } {
  const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT, {
    acceptNode: (node) =>
      node instanceof Element && (isExtensionNode(node) || SKIPPED.has(node.tagName)) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
  });
  let text = '';
  let start: number | null = null;
  let end: number | null = null;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!(node instanceof Text)) continue;
    const at = text.length;
    if (node === range.startContainer) start = at + range.startOffset;
    else if (start === null && range.comparePoint(node, 0) === 0) start = at;
    if (node === range.endContainer) end = at + range.endOffset;
    else if (range.comparePoint(node, node.length) === 0) end = at + node.length;
    text += node.data;
  }
  return { text, start, end };
}

// The selection with as many whole words on each side as fit in CONTEXT_MAX, about as many before as after.
function windowAround(before: string, selected: string, after: string): string | null {
  const collapse = (text: string) => Array.from(text.normalize('NFC').replace(/\s+/gu, ' '));
  const [head, middle, tail] = [collapse(before), collapse(selected), collapse(after)];
  const budget = CONTEXT_MAX - middle.length;
  if (budget < 0) return null;
  const beforeShare = Math.max(Math.floor(budget / 2), budget - tail.length);
  const kept = { head: head.slice(Math.max(0, head.length - beforeShare)), tail: [] as string[] };
  kept.tail = tail.slice(0, budget - kept.head.length);
  // A word cut at the window's edge goes: whole words only.
  if (kept.head.length < head.length) kept.head = kept.head.slice(kept.head.indexOf(' ') + 1);
  if (kept.tail.length < tail.length) kept.tail = kept.tail.slice(0, Math.max(0, kept.tail.lastIndexOf(' ')));
  return cleanCaptureText([...kept.head, ...middle, ...kept.tail].join(''));
}
