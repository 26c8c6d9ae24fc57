import { setTimeout as sleep } from 'node:timers/promises';
import type { Em } from '../../db/orm.ts';
import { type ChargeKind, creditsForCost, ExactDecimal } from '../../domain/credits.ts';
import type { ModelClient, StructuredRequest } from '../../model/model-client.ts';
import type { SpendReporter } from '../../model/provider-spend.ts';
import { isAppError } from '../../domain/problems.ts';
import { PROVIDER_WAIT_PER_ATTEMPT_MS } from '../../domain/retry-policy.ts';
import { releaseHold, reserveCredits, type Hold } from './holds.ts';
import { InsufficientCredits } from './wallet.ts';

/**
 * A paid provider call under a credit hold: hold the unit's maximum cost, make the call, and
 * let the charge (same key) settle the hold in its transaction; whatever ends without a charge
 * frees the hold. A process that dies mid-call leaves its hold until it lapses.
 */

/**
 * Margin of a hold's lifetime over the longest call: the charge transaction after the call,
 * and clock differences between processes. A lapsed hold only stops protecting the wallet; the
 * charge still settles correctly.
 */
const HOLD_MARGIN_MS = 30_000;

/**
 * How long a hold lives without renewal: longer than any live call under it (so a working
 * process never loses its hold), short enough that a crashed process frees the user's credits
 * within minutes (about 3.7 minutes with the default model timeouts).
 */
export const holdLifetimeMs = (longestCallMs: number) => longestCallMs + HOLD_MARGIN_MS;

export interface PaidCall {
  userId: string;
  /** The unit of work: also the idempotency key of its charge. */
  key: string;
  task: string;
  maxCredits: number;
  lifetimeMs: number;
}

/**
 * A call made by a Temporal activity. Background work does not fail because other work holds
 * the credits for a moment: it waits for those holds to settle while its own timeout allows,
 * and fails `insufficient_credits` only once the balance is spent.
 */
export interface BackgroundCall {
  /**
   * When the activity's attempt was scheduled (epoch ms): a later attempt that finds an earlier
   * one's call in flight knows its answer was lost. A time, not the attempt number, because a
   * local activity whose worker died runs again from attempt 1 (after a workflow task timeout of
   * 10 s, far beyond any clock skew between workers).
   */
  attemptScheduledAt: number;
  /** Epoch ms by which the activity must be done (its start-to-close timeout). */
  deadline: number;
  /**
   * How long work waits out a provider outage (PROVIDER_WAIT_WINDOW_MS): an attempt waits for the breaker no longer than this,
   * nor PROVIDER_WAIT_PER_ATTEMPT_MS.
   */
  providerWaitMs: number;
  signal?: AbortSignal;
}

/** The hold of a unit of work made of these model calls (one, or a page's chunks): their summed cost ceiling. */
export function modelCallHold(
  model: ModelClient,
  unit: { userId: string; key: string; kind: ChargeKind },
  requests: readonly StructuredRequest<unknown>[],
): PaidCall {
  const ceiling = requests.reduce((sum, request) => sum.plus(model.costCeilingUsd(request)), new ExactDecimal(0));
  return {
    userId: unit.userId,
    key: unit.key,
    task: requests[0]?.task ?? unit.kind,
    maxCredits: creditsForCost(unit.kind, ceiling.toFixed()),
    lifetimeMs: holdLifetimeMs(model.longestCallMs),
  };
}

const WAIT_PAUSE_MS = { min: 200, jitter: 400 };

/**
 * Calls whose holds lapsed with the call in flight (its process died): their answers were lost.
 * A reservation made inside a larger transaction (at request time) reports them once that commits.
 */
export function reportLostCalls(reporter: SpendReporter, tasks: readonly string[]): void {
  for (const task of tasks) reporter.recordUnbilled({ task, reason: 'lost', costUsd: null });
}

/**
 * A unit of model work under a credit hold. Background work first takes its turn: a model slot
 * (MODEL_MAX_CONCURRENCY), then the provider's breaker letting its call through (`onProviderWait`
 * told when that wait starts); both before its credits are held, so work queued behind the cap or
 * an outage holds none. A call the provider fails (a probe, or one before the breaker opened) sends
 * it back to waiting for the breaker, within the same attempt, while the attempt leaves time for a
 * call: so once a probe finds the provider back, the waiting work goes on within a second or two,
 * with no retry's backoff to sleep out. A request holds first (402 before any wait), waits for its
 * slot in the call up to the bound, and is refused at once while the breaker is open.
 */
export function withModelCallHold<T>(
  em: Em,
  model: ModelClient,
  call: PaidCall,
  { background, onProviderWait }: { background: BackgroundCall | undefined; onProviderWait?: () => Promise<void> },
  work: (hold: Hold) => Promise<T>,
) {
  if (!background) return withCreditHold(em, model, call, undefined, work);
  const { signal } = background;
  // A slot may be waited for as long as the attempt leaves time for the call; the provider, within an attempt, no longer than
  // PROVIDER_WAIT_PER_ATTEMPT_MS: attempts that met the provider down make up its outage window (src/domain/retry-policy.ts).
  const callTimeLeft = () => Math.max(0, background.deadline - Date.now() - call.lifetimeMs);
  // Admitted, it holds at once or not at all: credits other work holds are waited for outside the admission, so
  // that a probe the breaker gave is never kept from every other caller while this work waits for credits.
  const held = () => withCreditHold(em, model, call, background, work, { waitForHeldCredits: false });
  const untilServed = async () => {
    const providerWaitEnds = Date.now() + Math.min(background.providerWaitMs, PROVIDER_WAIT_PER_ATTEMPT_MS);
    const waitLeft = () => Math.min(callTimeLeft(), Math.max(0, providerWaitEnds - Date.now()));
    for (;;) {
      try {
        return await model.whenAdmitted(held, { maxWaitMs: waitLeft(), signal, onWait: onProviderWait });
      } catch (error) {
        if (await waitedForHeldCredits(error, call, background)) continue;
        if (!isAppError(error) || error.code !== 'service_unavailable' || waitLeft() <= 0) throw error;
        await pause(PROVIDER_RETRY_PAUSE_MS, signal);
      }
    }
  };
  return model.inSlot(untilServed, { maxWaitMs: callTimeLeft(), signal });
}

/** Between a call the provider failed and the next look at its breaker, within one attempt. */
const PROVIDER_RETRY_PAUSE_MS = { min: 500, jitter: 500 };

async function pause(range: { min: number; jitter: number }, signal: AbortSignal | undefined): Promise<void> {
  try {
    await sleep(range.min + Math.random() * range.jitter, undefined, signal ? { signal } : {});
  } catch {
    throw signal?.reason;
  }
}

export async function withCreditHold<T>(
  em: Em,
  reporter: SpendReporter,
  call: PaidCall,
  background: BackgroundCall | undefined,
  work: (hold: Hold) => Promise<T>,
  options: { waitForHeldCredits?: boolean } = {},
): Promise<T> {
  const hold = await holdCredits(em, reporter, call, background, options);
  try {
    return await work(hold);
  } finally {
    // Settled by the charge already, or freed here; should this fail, the hold lapses by itself.
    if (!hold.settledByCharge) await releaseHold(em, call.userId, call.key).catch(() => {});
  }
}

/**
 * Holds credits for a call that starts right after; reports calls whose answers were lost. Background work waits
 * for credits other work holds unless told not to (`waitForHeldCredits: false`: its caller waits instead).
 */
export async function holdCredits(
  em: Em,
  reporter: SpendReporter,
  call: PaidCall,
  background: BackgroundCall | undefined,
  { waitForHeldCredits = true }: { waitForHeldCredits?: boolean } = {},
): Promise<Hold> {
  for (;;) {
    try {
      const hold = await reserveCredits(em, { ...call, callAttemptAt: background?.attemptScheduledAt ?? 0 });
      reportLostCalls(reporter, hold.lostCalls);
      return hold;
    } catch (error) {
      if (!waitForHeldCredits || !(await waitedForHeldCredits(error, call, background))) throw error;
    }
  }
}

/**
 * When `error` says other work holds the credits and the background attempt leaves time for the call after a pause:
 * pauses, and says so (true). Else false at once: the error is the caller's to throw.
 */
async function waitedForHeldCredits(error: unknown, call: PaidCall, background: BackgroundCall | undefined): Promise<boolean> {
  const pauseMs = WAIT_PAUSE_MS.min + Math.random() * WAIT_PAUSE_MS.jitter;
  const mayWait =
    background && error instanceof InsufficientCredits && error.reason === 'held' && Date.now() + pauseMs + call.lifetimeMs <= background.deadline;
  if (!mayWait) return false;
  await pause({ min: pauseMs, jitter: 0 }, background.signal);
  return true;
}
