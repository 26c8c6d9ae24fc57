import { fakeTranslate, type Responder } from '../fake-responders.ts';

interface BatchInput {
  source_language: string;
  target_language: string;
  items: { id: string; text: string }[];
}

/**
 * The fake provider's answers for translation tasks: `[<target>] <text>` per item, which keeps
 * every placeholder; the detected language of `auto` sources is always `en`.
 */
export const translationResponders: Record<string, Responder> = {
  translate_batch: (input: BatchInput) => ({
    items: input.items.map((item) => ({
      id: item.id,
      text: fakeTranslate(item.text, input.target_language),
      detected_source_language: input.source_language === 'auto' ? 'en' : input.source_language,
    })),
  }),
  translate_sentence: (input: { text: string; target_language: string }) => ({
    translation: fakeTranslate(input.text, input.target_language),
  }),
};
