/** The elements whose text is one paragraph of a page, as the extension reads a page. */
const BLOCKS = 'p, h1, h2, h3, h4, h5, h6, li, blockquote, dt, dd, figcaption, td, th, pre';

/**
 * The text blocks of an HTML fragment (pasted or dropped), in document order. Parsed with
 * DOMParser into an inert document, never into this page: its scripts do not run, its images do
 * not load, and only text comes out. A block that holds other blocks (a list item of paragraphs)
 * gives way to them, so no text is taken twice; a fragment with no blocks is one paragraph.
 */
export function textBlocksOf(html: string): string[] {
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  for (const hidden of body.querySelectorAll('script, style, template, noscript')) hidden.remove();
  const blocks = [...body.querySelectorAll(BLOCKS)].filter((block) => !block.querySelector(BLOCKS));
  const texts = (blocks.length > 0 ? blocks : [body]).map((block) => (block.textContent ?? '').replace(/\s+/g, ' ').trim());
  return texts.filter(Boolean);
}
