import { fakeTranslate, type Responder } from '../responder.ts';

/**
 * The fake provider's `work_draft` answer: the prompt marked as English, one note naming the
 * tone, and the first offered library expression as "used" (so tests can see it flow through).
 */
export const workResponders: Record<string, Responder> = {
  work_draft: (input: { prompt: string; tone: string; expressions: { cardId: string; text: string }[] }) => ({
    english: fakeTranslate(input.prompt, 'en'),
    notes: [`tone: ${input.tone}`],
    usedCardIds: input.expressions.slice(0, 1).map((e) => e.cardId),
  }),
};
