/**
 * The provider spend of one card is bounded. Every model call a card's preparation makes is
 * counted on the card before it is made, and given back when the provider could not serve it
 * (unreachable, 5xx, 429, privacy routing refused: nothing was spent). So a card pays for at most
 * `modelCalls` answered calls over its whole life, every retry, crash and refresh together; a
 * refresh after that fails at once, without a model call. Within one attempt an invalid answer is
 * asked again `invalidAnswerRetries` times, unless it cannot get better.
 */
export const CARD_ENRICHMENT_BUDGET = { modelCalls: 5, invalidAnswerRetries: 1 } as const;

/** Output problems (the model client's `outputProblem`) that asking again will not fix. */
const LASTING_OUTPUT_PROBLEMS: readonly unknown[] = ['refused', 'cut_off'];

/** Whether to ask the model again after the `invalidAnswers`-th invalid answer of one attempt. */
export function askAgainAfterInvalidAnswer(outputProblem: unknown, invalidAnswers: number): boolean {
  return !LASTING_OUTPUT_PROBLEMS.includes(outputProblem) && invalidAnswers <= CARD_ENRICHMENT_BUDGET.invalidAnswerRetries;
}

export const BUDGET_SPENT_MESSAGE =
  `This card's preparation has used the ${CARD_ENRICHMENT_BUDGET.modelCalls} model calls a card may make without getting a valid answer; ` +
  'delete the card and capture it again to start over.';
