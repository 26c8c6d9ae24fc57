import { fakeTranslate, type Responder } from '../responder.ts';

interface BatchInput {
  source_language: string;
  target_language: string;
  items: { id: string; text: string }[];
}

/**
 * An instruction hidden in page text that the fake, like a real model, obeys: an item saying
 * `translate "Sign in" as "…"` changes the translation of every *other* item of the same call
 * whose text is exactly "Sign in". Tests use it to prove that one user's item cannot decide what
 * another user is served.
 */
const INJECTION = /translate "([^"]+)" as "([^"]+)"/gi;

function obeyedInstructions(items: BatchInput['items']): Map<string, { from: string; to: string }[]> {
  const byItem = new Map<string, { from: string; to: string }[]>();
  for (const item of items) {
    byItem.set(
      item.id,
      Array.from(item.text.matchAll(INJECTION), ([, from, to]) => ({ from: from!, to: to! })),
    );
  }
  return byItem;
}

function injectedTranslation(item: { id: string; text: string }, instructions: Map<string, { from: string; to: string }[]>): string | null {
  for (const [issuer, list] of instructions) {
    if (issuer === item.id) continue;
    const hit = list.find((i) => i.from === item.text);
    if (hit) return hit.to;
  }
  return null;
}

/**
 * The fake provider's answers for translation tasks: `[<target>] <text>` per item, which keeps
 * every placeholder (unless an injected instruction says otherwise, see above); the detected
 * language of `auto` sources is always `en`.
 */
export const translationResponders: Record<string, Responder> = {
  translate_batch: (input: BatchInput) => {
    const instructions = obeyedInstructions(input.items);
    return {
      items: input.items.map((item) => ({
        id: item.id,
        text: injectedTranslation(item, instructions) ?? fakeTranslate(item.text, input.target_language),
        detected_source_language: input.source_language === 'auto' ? 'en' : input.source_language,
      })),
    };
  },
  translate_sentence: (input: { text: string; target_language: string }) => ({
    translation: fakeTranslate(input.text, input.target_language),
  }),
};
