/**
 * A Replay prompt built from the learner's own sentence: the expression as it stands in one of
 * the card's contexts, masked by the same rules as the item's answer (./mask.ts), with the rest of
 * the sentence shown around it. Pure.
 */
import { contextParts } from '../library/contexts.ts';
import { buildMask } from './mask.ts';

export interface ContextCloze {
  contextId: string;
  before: string;
  /** The expression as written in the sentence: what the learner reconstructs with this prompt. */
  answer: string;
  after: string;
  mask: string;
}

export interface StoredContext {
  contextId: string;
  text: string;
  start: number;
  end: number;
}

/** The cloze of a context for a card in its learning state (the mask seeded as the item's is). */
export function contextCloze(context: StoredContext, card: { cardId: string; stability: number; reps: number }): ContextCloze {
  const { before, expression, after } = contextParts(context.text, context);
  return {
    contextId: context.contextId,
    before,
    answer: expression,
    after,
    mask: buildMask({ cardId: card.cardId, answer: expression, stability: card.stability, reps: card.reps }),
  };
}

/** A stored item's cloze: its context as stored now, with the mask the item was given. */
export function storedCloze(context: StoredContext, mask: string): ContextCloze | null {
  const { before, expression, after } = contextParts(context.text, context);
  // The mask was built for this span; a span of another length cannot be the same context.
  if (Array.from(expression).length !== Array.from(mask).length) return null;
  return { contextId: context.contextId, before, answer: expression, after, mask };
}
