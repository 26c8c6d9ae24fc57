import { counter } from '../platform/metrics.ts';

/**
 * What the providers cost the operator, as Prometheus metrics: every model call by outcome, the
 * cost providers reported, and the spend nobody paid for. Labels are tasks, outcomes and reasons,
 * never users or text.
 */

const modelCalls = counter('lcs_model_calls_total', 'Model calls by task and outcome (ok, or the problem code the call failed with)', ['task', 'outcome']);
const providerCost = counter('lcs_provider_cost_usd_total', 'Cost the provider reported for the answers it sent, USD, by task', ['task']);
const unbilledCost = counter(
  'lcs_provider_unbilled_cost_usd_total',
  'Provider cost of results nobody paid for, USD, by task and reason (lost calls are not in it: their cost never arrived)',
  ['task', 'reason'],
);
const unbilledCalls = counter('lcs_provider_unbilled_calls_total', 'Provider calls whose result nobody paid for, by task and reason', ['task', 'reason']);

/**
 * Why a call's result was not billed:
 * - `invalid_output`: the answer failed validation (or was cut off) and was thrown away;
 * - `superseded`: the unit of work changed meanwhile (card deleted or its preparation retried, sentence
 *   retried, page-translation claim taken over, clip gone), so the result was not kept;
 * - `duplicate`: a concurrent twin of the same request stored and paid first;
 * - `lost`: the process died during the call (a worker SIGKILL, an API crash), so its answer
 *   never arrived; a retry called again. Its cost is unknown, at most what the hold covered.
 */
type UnbilledReason = 'invalid_output' | 'superseded' | 'duplicate' | 'lost';

interface UnbilledSpend {
  task: string;
  reason: UnbilledReason;
  /** Exact decimal text, or null when the cost never reached us (`lost`). */
  costUsd: string | null;
}

export interface SpendLogger {
  warn(obj: object, msg?: string): void;
}

/** Whoever discards a paid-for result reports it here: metrics, and one warn line without user text. */
export interface SpendReporter {
  recordUnbilled(spend: UnbilledSpend): void;
}

export function recordModelCall(task: string, outcome: string): void {
  modelCalls.inc({ task, outcome });
}

export function recordProviderCost(task: string, costUsd: string): void {
  const usd = Number(costUsd);
  if (usd > 0) providerCost.inc({ task }, usd);
}

export function spendReporter(log?: SpendLogger): SpendReporter {
  return {
    recordUnbilled({ task, reason, costUsd }) {
      unbilledCalls.inc({ task, reason });
      if (costUsd !== null && Number(costUsd) > 0) unbilledCost.inc({ task, reason }, Number(costUsd));
      log?.warn({ task, outcome: reason, costUsd }, 'provider spend not billed');
    },
  };
}
