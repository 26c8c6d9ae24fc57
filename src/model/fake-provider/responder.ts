/**
 * `input` is the parsed user message; the answer is sent back as the JSON content (a string as it
 * is). `repairing`: the request shows the model its earlier answer and what was wrong with it.
 */
export type Responder = (input: any, request: { model: string; task: string; schema: any; repairing: boolean }) => unknown;

/** Deterministic stand-in for a translation, recognisable in assertions. */
export function fakeTranslate(text: string, targetLanguage: string): string {
  return `[${targetLanguage}] ${text}`;
}
