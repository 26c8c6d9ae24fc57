import { fakeTranslate, type Responder } from '../responders.ts';

/** Misspellings the fake "corrects", so tests and local runs see a quiet correction happen. */
const FAKE_CORRECTIONS: Record<string, string> = { recieve: 'receive', teh: 'the', definately: 'definitely', seperate: 'separate' };

/** capture_preparation: deterministic, recognisable answers (`[fr] <text>`). */
export const libraryResponders: Record<string, Responder> = {
  capture_preparation: (input: { text: string; nativeLanguage: string }) => {
    const corrected = input.text.replace(/\p{L}+/gu, (word) => FAKE_CORRECTIONS[word.toLowerCase()] ?? word);
    const hasCorrection = corrected !== input.text;
    return {
      translation: fakeTranslate(input.text, input.nativeLanguage),
      correctedText: hasCorrection ? corrected : null,
      correctionNote: hasCorrection ? 'Spelling fixed.' : null,
      usage: {
        register: 'neutral',
        guidance: `[${input.nativeLanguage}] How to use: ${input.text}`,
        examples: [`Example: ${input.text}.`],
      },
      focuses: [{ kind: 'meaning', note: `[${input.nativeLanguage}] Meaning of ${input.text}` }],
    };
  },
};
