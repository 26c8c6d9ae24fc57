// How translations look, as a stylesheet the page receives only once the learner asks for a
// translation (before that, nothing of the extension is in the page to probe). A constructed
// sheet: the page's Content Security Policy does not apply to it, and no file of the extension is
// exposed to the web. Translations inherit the page's font and colour; the accent is a thin bar
// made from the text's own colour, so it reads on a dark header as on a white page, and sits on
// the right of a right-to-left block.
const RULES = `
  .lcs-translation { display: block; margin-block: 0.25em 0.1em; padding-inline-start: 0.6em;
    border-inline-start: 2px solid color-mix(in srgb, currentColor 35%, transparent); font-weight: normal; font-style: normal;
    text-transform: none; letter-spacing: normal; opacity: 0.92; }
  .lcs-translation > span { display: block; text-align: match-parent; unicode-bidi: isolate; }
  .lcs-translation.lcs-heading { font-size: 0.62em; line-height: 1.35; margin-block: 0.3em 0; }
  .lcs-translation.lcs-cell { margin: 0.15em 0 0; font-size: 0.9em; }
`;
const HIDDEN = `.lcs-translation { display: none !important; }`;

let sheet: CSSStyleSheet | null = null;
let hidden: CSSStyleSheet | null = null;

// Adds the stylesheet to the page (once).
export function installTranslationStyle(): void {
  if (sheet) return;
  sheet = new CSSStyleSheet();
  sheet.replaceSync(RULES);
  hidden = new CSSStyleSheet();
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet, hidden];
}

// The original only (translations hidden), or bilingual: no attribute of the page is touched for it.
export function showOriginalOnly(original: boolean): void {
  hidden?.replaceSync(original ? HIDDEN : '');
}
