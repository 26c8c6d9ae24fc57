/**
 * Holds: credits reserved for a unit of work before its provider call, settled by its charge
 * (./wallet.ts) or released when the call fails; `withCreditHold` (./paid-call.ts) puts one around
 * every model call. How holds and charges fit together: docs/credits.md.
 */
import type { Em } from '../../db/orm.ts';
import { sql, firstRow, preparedStatement, run } from '../../db/sql.ts';
import { AppError } from '../../domain/problems.ts';
import { counter } from '../../platform/metrics.ts';
import { InsufficientCredits, joinCallersTransaction, lockWallet } from './wallet.ts';

const holdsRefused = counter(
  'lcs_credit_holds_refused_total',
  'Units of work refused (402) before their provider call: the balance is spent (empty) or held by work in progress (held)',
  ['task', 'reason'],
);

export interface HoldRequest {
  userId: string;
  /** The unit of work: the same key as its charge's idempotency key, which settles the hold. */
  key: string;
  /** Model task (or `speech`) of the call, for spend accounting. */
  task: string;
  /** The unit's maximum cost in credits (from its cost ceiling). */
  maxCredits: number;
  /** After this long without renewal the hold lapses: its process is presumed dead. */
  lifetimeMs: number;
  /**
   * Set when the provider call starts right after this hold: when the activity attempt making it
   * was scheduled, in epoch ms (0 outside an activity). Unset when reserving ahead of the call
   * (at request time).
   */
  callAttemptAt?: number;
}

export interface Hold {
  credits: number;
  /** Tasks of earlier calls under this user's holds that never settled: their results were lost. */
  lostCalls: string[];
  /**
   * Set by the work under the hold once a committed charge under its key settled it (the charge deletes the hold
   * in its own statement), so that withCreditHold does not delete it again: one statement fewer per paid call.
   */
  settledByCharge?: boolean;
}

interface HoldRow {
  task: string;
  credits: number;
  call_in_flight: boolean;
  call_attempt_at: number;
}

/**
 * Holds min(available, maxCredits) for the unit, where available = balance − other live holds,
 * serialised with every charge by the wallet row lock. A unit that already holds credits keeps
 * them and renews the hold (a retried activity, an async sentence reserved at request time).
 * Refused (402 `insufficient_credits`) only when nothing is available: `empty` when the balance is
 * spent, `held` when work in progress holds the rest (it settles soon).
 *
 * One round trip (`credit_hold_reserve`, src/db/migrations/0032-credit-hold-reserve.ts, where the
 * rule is), joined to the caller's transaction when there is one. The first call of a new period
 * rolls the wallet over first, in a transaction.
 */
export async function reserveCredits(em: Em, request: HoldRequest, now = new Date()): Promise<Hold> {
  // A cost ceiling gone wrong is a bug: said here, before the wallet's lock, not as a failed cast or constraint in the database.
  if (!Number.isSafeInteger(request.maxCredits) || request.maxCredits < 0) throw new RangeError('maxCredits must be a non-negative integer');
  let reserved = (await firstRow(em, holdReserve(request, now)))!;
  if (reserved.outcome === 'period_ended') {
    reserved = await em.transactional(async (tx) => {
      await lockWallet(tx, request.userId, now);
      return (await firstRow(tx, holdReserve(request, now)))!;
    }, joinCallersTransaction());
  }
  const { outcome, own } = reserved;
  if (outcome === 'no_wallet') throw new AppError('not_found', 'No wallet for this account.');
  if (outcome === 'period_ended') throw new Error('the wallet was still in an ended period after it was rolled over');
  if (outcome !== 'reserved') {
    holdsRefused.inc({ task: request.task, reason: outcome });
    throw new InsufficientCredits(outcome, reserved.balance!, Number(reserved.held));
  }
  const lostCalls = reserved.lost!;
  // Temporal runs one attempt of an activity at a time: a call an earlier attempt left in flight is over, its answer lost.
  if (own?.call_in_flight && request.callAttemptAt !== undefined && own.call_attempt_at < request.callAttemptAt) lostCalls.push(own.task);
  return { credits: reserved.credits!, lostCalls };
}

/** What `credit_hold_reserve` answers: see its migration. */
interface ReservedRow {
  outcome: 'reserved' | 'empty' | 'held' | 'no_wallet' | 'period_ended';
  credits: number | null;
  balance: number | null;
  held: string | null;
  own: HoldRow | null;
  lost: string[] | null;
}

const holdReserve = preparedStatement(
  'credit_hold_reserve',
  (request: HoldRequest, now: Date) =>
    sql<ReservedRow>`SELECT outcome, credits, balance, held::text AS held, own, lost FROM credit_hold_reserve(${request.userId}, ${request.key},
       ${request.task}, ${request.maxCredits}, ${request.callAttemptAt !== undefined}, ${request.callAttemptAt ?? 0}, ${request.lifetimeMs}, ${now})`,
);

const holdRelease = preparedStatement(
  'credit_hold_release',
  (userId: string, key: string) => sql`DELETE FROM credit_holds WHERE user_id = ${userId} AND hold_key = ${key}`,
);

/** Frees a unit's hold (its call failed, or settled without a charge). A no-op once settled. */
export async function releaseHold(em: Em, userId: string, key: string): Promise<void> {
  await run(em, holdRelease(userId, key));
}

/**
 * Ends at once the holds of a unit's earlier owners (keys starting `unitPrefix`, but for
 * `keepKey`), once their lease showed them dead: their credits stop being held, and the user's
 * next reservation reaps them like any lapsed hold, counting a call left in flight as lost.
 */
export async function expireEarlierHolds(em: Em, userId: string, unitPrefix: string, keepKey: string): Promise<void> {
  await run(
    em,
    sql`UPDATE credit_holds SET expires_at = least(expires_at, now()) WHERE user_id = ${userId} AND starts_with(hold_key, ${unitPrefix})
         AND hold_key <> ${keepKey}`,
  );
}
