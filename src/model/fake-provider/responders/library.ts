import { fakeTranslate, type Responder } from '../responder.ts';

/** Misspellings the fake "corrects", so tests and local runs see a quiet correction happen. */
const FAKE_CORRECTIONS: Record<string, string> = { recieve: 'receive', teh: 'the', definately: 'definitely', seperate: 'separate' };

/**
 * Senses the fake tells apart by the words around the expression, as a model would: a "bank" in a
 * sentence with a river in it is the river's edge, any other is the money one.
 */
const FAKE_SENSES: { cues: RegExp; gloss: string }[] = [
  { cues: /\b(river|stream|water|shore|fishing|fished|grassy|muddy|canal)\b/iu, gloss: 'edge of a river' },
  { cues: /\b(money|account|loan|cash|deposit|cheque|check|savings|branch|teller)\b/iu, gloss: 'institution for money' },
];

/** The sense the fake chooses for a context: its gloss and the word of the context that decided it. */
function fakeSense(text: string, context: string, nativeLanguage: string): { gloss: string; cue: string } {
  const lowerText = text.toLowerCase();
  // A word of the expression, or one holding it ("harpooned" for "harpoon", as a Kindle stem meets it), is not outside it.
  const outside = (word: string) => !lowerText.includes(word.toLowerCase()) && !word.toLowerCase().includes(lowerText);
  for (const { cues, gloss } of FAKE_SENSES) {
    const cue = context.match(cues)?.[0];
    if (cue && outside(cue)) return { gloss: `[${nativeLanguage}] ${gloss}`, cue };
  }
  // No known cue: the longest word of the sentence outside the expression.
  const words = (context.match(/\p{L}+/gu) ?? []).filter(outside);
  const cue = words.sort((a, b) => b.length - a.length)[0] ?? context;
  return { gloss: `[${nativeLanguage}] ${text} as in “${cue}”`, cue };
}

/** capture_preparation: deterministic, recognisable answers (`[fr] <text>`); with a context, the sense it uses. */
export const libraryResponders: Record<string, Responder> = {
  capture_preparation: (input: { text: string; context?: string; nativeLanguage: string }) => {
    const corrected = input.text.replace(/\p{L}+/gu, (word) => FAKE_CORRECTIONS[word.toLowerCase()] ?? word);
    const hasCorrection = corrected !== input.text;
    const sense = input.context ? fakeSense(input.text, input.context, input.nativeLanguage) : null;
    const meaning = sense ? ` (${sense.gloss})` : '';
    return {
      translation: `${fakeTranslate(input.text, input.nativeLanguage)}${meaning}`,
      correctedText: hasCorrection ? corrected : null,
      correctionNote: hasCorrection ? 'Spelling fixed.' : null,
      usage: {
        register: 'neutral',
        guidance: `[${input.nativeLanguage}] How to use: ${input.text}${meaning}`,
        examples: [`Example: ${input.text}.`],
      },
      focuses: [{ kind: 'meaning', note: `[${input.nativeLanguage}] Meaning of ${input.text}${meaning}` }],
      sense,
    };
  },
};
