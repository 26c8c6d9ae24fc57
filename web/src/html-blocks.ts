import { innermostBlocks } from '../../src/domain/text-blocks.ts';

/**
 * The text blocks of an HTML fragment (pasted or dropped), in document order, as the extension
 * reads a page. Parsed with DOMParser into an inert document, never into this page: its scripts do
 * not run, its images do not load, and only text comes out. A block that holds other blocks (a
 * list item of paragraphs) gives way to them, so no text is taken twice; a fragment with no blocks
 * is one paragraph (the body is a block).
 */
export function textBlocksOf(html: string): string[] {
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  // Their text is in a block's textContent, though never shown.
  for (const hidden of body.querySelectorAll('script, style, template, noscript')) hidden.remove();
  const texts = innermostBlocks<Element>(body).map((block) => (block.textContent ?? '').replace(/\s+/g, ' ').trim());
  return texts.filter(Boolean);
}
