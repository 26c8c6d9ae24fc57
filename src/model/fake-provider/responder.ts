/** `input` is the parsed user message; the answer is sent back as the JSON content. */
export type Responder = (input: any, request: { model: string; task: string; schema: any }) => unknown;

/** Deterministic stand-in for a translation, recognisable in assertions. */
export function fakeTranslate(text: string, targetLanguage: string): string {
  return `[${targetLanguage}] ${text}`;
}
