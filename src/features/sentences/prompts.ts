import { z } from 'zod';
import { languageName } from '../../domain/languages.ts';
import { translationOutputTokens } from '../../domain/model-budget.ts';

const translationSchema = z.object({ translation: z.string().trim().min(1) });

const SYSTEM_PROMPT =
  'You translate a sentence a language learner saved. Translate `text` into `target_language` faithfully and naturally, ' +
  'keeping its register. Answer with the translation only, in `translation`: no notes, no quotation marks.';

/** The provider request translating a sentence into the learner's native language. */
export function sentenceRequest(originalText: string, nativeLanguage: string) {
  return {
    task: 'translate_sentence',
    schema: translationSchema,
    system: `${SYSTEM_PROMPT} Target language: ${languageName(nativeLanguage)}.`,
    input: { text: originalText, target_language: nativeLanguage },
    maxTokens: translationOutputTokens([originalText]),
  };
}
