/**
 * How a card, sentence or audio workflow ended, as operators see it (the `LcsOutcome` search
 * attribute). A failure an operator can do nothing about — the user ran out of credits, deleted
 * the card — is a business outcome: the workflow ends Completed with it, so that a Failed
 * workflow always means an infrastructure, provider or output problem worth a look. Pure.
 */
import type { ProblemCode } from './problems.ts';

const BUSINESS_OUTCOMES = ['insufficient_credits', 'deleted'] as const;
export type BusinessOutcome = (typeof BUSINESS_OUTCOMES)[number];

/** What `LcsOutcome` holds: a business outcome, or the catalog code a Failed workflow ended with. */
export type WorkflowOutcome = BusinessOutcome | ProblemCode;

/** The business outcome a failure code stands for, or null when the failure is a real one. */
export function businessOutcomeOf(code: ProblemCode): BusinessOutcome | null {
  return code === 'insufficient_credits' ? code : null;
}

export function isBusinessOutcome(value: unknown): value is BusinessOutcome {
  return (BUSINESS_OUTCOMES as readonly unknown[]).includes(value);
}
