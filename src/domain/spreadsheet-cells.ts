/**
 * Spreadsheet cells that would run as formulas (OWASP, "CSV Injection"): our exports make them
 * safe, and our importer reads them back exactly. Pure, shared by the library's export and the
 * import parsers (src/domain/imports.ts).
 */

/**
 * A cell a spreadsheet would evaluate as a formula: one starting with `=`, `+`, `-`, `@`, a tab,
 * CR or LF, or the full-width `＝ ＋ － ＠`, apostrophes in front of these included (so that the
 * rule can be undone exactly).
 */
const FORMULA_START = /^'*[=+\-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * Such a cell gets one leading apostrophe, the spreadsheets' "this is text" mark, so that
 * `=HYPERLINK(…)` from a hostile page, an import or model output is shown, never run. Every other
 * cell is left as it is (`'til` stays `'til`).
 */
export const spreadsheetSafe = (value: string) => (FORMULA_START.test(value) ? `'${value}` : value);

/** The exact inverse of spreadsheetSafe, for a reader of our files: one apostrophe dropped where it was added. */
export const spreadsheetText = (cell: string) => (cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell);
