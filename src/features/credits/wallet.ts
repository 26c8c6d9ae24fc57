import type { Em } from '../../db/orm.ts';
import { sql, allRows, firstRow, preparedStatement, run } from '../../db/sql.ts';
import { type ChargeKind, type Plan, applyCharge, creditsForCost, monthlyAllowance, periodContaining } from '../../domain/credits.ts';
import { AppError } from '../../domain/problems.ts';
import { counter } from '../../platform/metrics.ts';
import type { FeatureContext } from '../context.ts';
import type { LedgerPage, WalletView } from './schemas.ts';

const creditsCharged = counter('lcs_credits_charged_total', 'Credits taken from wallets, by kind (a charge repeated under its idempotency key counts once)', [
  'kind',
]);
const holdsRefused = counter(
  'lcs_credit_holds_refused_total',
  'Units of work refused (402) before their provider call: the balance is spent (empty) or held by work in progress (held)',
  ['task', 'reason'],
);

export interface ChargeRequest {
  userId: string;
  /** Derived from the unit of work (e.g. `card-enrichment/<cardId>/attempt-2`); one entry per key, ever. */
  idempotencyKey: string;
  /** Exact decimal text of the provider's cost in USD. */
  providerCostUsd: string;
  kind: ChargeKind;
  reason: string;
  ref?: string | null;
  /**
   * The hold this charge settles, when it is not the one keyed like the charge: the part of a
   * unit's work that was delivered and kept when the rest failed is charged under a key of its
   * own, and settles the unit's hold in the same transaction.
   */
  settlesHold?: string;
}

export interface ChargeResult {
  /** False when this key had already been charged: nothing new was taken. */
  charged: boolean;
  credits: number;
  debited: number;
  shortfall: number;
  balanceAfter: number;
  entryId: string;
}

/** What a charge reads of the wallet, locked for its transaction. */
export interface WalletRow {
  period_anchor: Date;
  period_start: Date;
  period_end: Date;
  balance: number;
  plan: Plan;
}

/** Creates the wallet and the first period's grant. Called inside the sign-up transaction. */
export async function openWallet(em: Em, userId: string, plan: Plan, anchor: Date): Promise<void> {
  const period = periodContaining(anchor, anchor);
  await run(
    em,
    sql`INSERT INTO wallets (user_id, period_anchor, period_start, period_end, balance) VALUES (${userId}, ${anchor}, ${period.start},
         ${period.end}, ${monthlyAllowance[plan]})`,
  );
  await insertEntry(
    em,
    userId,
    `grant:${period.start.toISOString()}`,
    'grant',
    monthlyAllowance[plan],
    monthlyAllowance[plan],
    null,
    0,
    `${plan} monthly allowance`,
    null,
    period.start,
  );
}

/** Each column a charge reads of the wallet (WalletRow), by the table it is in: `wallets w JOIN users u ON u.id = w.user_id`. */
const WALLET_COLUMN_TABLES = { period_anchor: 'w', period_start: 'w', period_end: 'w', balance: 'w', plan: 'u' } as const satisfies Record<
  keyof WalletRow,
  'w' | 'u'
>;

/**
 * The wallet's columns a charge reads, for a statement of the caller's that locks the wallet itself, in the same way:
 * `FROM wallets w JOIN users u ON u.id = w.user_id … FOR UPDATE OF w`.
 */
export const WALLET_COLUMNS = sql.join(Object.entries(WALLET_COLUMN_TABLES).map(([column, table]) => sql.ref(`${table}.${column}`)));

/** The same columns as a subquery aliased `alias` gives them. */
export const walletColumnsOf = (alias: string) => sql.join(Object.keys(WALLET_COLUMN_TABLES).map((column) => sql.ref(`${alias}.${column}`)));

/** Prepared (src/db/sql.ts), like the charge's and the hold's statements: every paid call runs them. */
const walletLock = preparedStatement(
  'wallet_lock',
  (userId: string) => sql<WalletRow>`SELECT ${WALLET_COLUMNS} FROM wallets w JOIN users u ON u.id = w.user_id WHERE w.user_id = ${userId} FOR UPDATE OF w`,
);

/**
 * Locks the wallet row for the rest of the transaction and rolls it into the current period
 * when the previous one has ended: the unused balance expires (a ledger entry says so) and the
 * plan's allowance is granted. Periods are computed on access; no scheduler is involved.
 */
async function lockCurrentWallet(tx: Em, userId: string, now: Date): Promise<WalletRow> {
  const wallet = await firstRow(tx, walletLock(userId));
  if (!wallet) throw new AppError('not_found', 'No wallet for this account.');
  return inCurrentPeriod(tx, userId, wallet, now);
}

/** A wallet its transaction has locked, rolled into the current period (lockCurrentWallet). */
async function inCurrentPeriod(tx: Em, userId: string, wallet: WalletRow, now: Date): Promise<WalletRow> {
  if (now < new Date(wallet.period_end)) return wallet;
  return startPeriod(tx, userId, wallet, new Date(wallet.period_anchor), wallet.plan, now);
}

/** Takes the wallet row lock for the rest of the transaction, before rows that a charge locks after it. */
export async function lockWallet(tx: Em, userId: string): Promise<void> {
  await lockCurrentWallet(tx, userId, new Date());
}

async function startPeriod(tx: Em, userId: string, wallet: WalletRow, anchor: Date, plan: Plan, now: Date): Promise<WalletRow> {
  const period = periodContaining(anchor, now);
  const allowance = monthlyAllowance[plan];
  if (wallet.balance > 0) {
    await insertEntry(
      tx,
      userId,
      `expire:${new Date(wallet.period_start).toISOString()}:${period.start.toISOString()}`,
      'expiry',
      -wallet.balance,
      0,
      null,
      0,
      'unused credits expire at the end of the period',
      null,
      new Date(wallet.period_start),
    );
  }
  await insertEntry(tx, userId, `grant:${period.start.toISOString()}`, 'grant', allowance, allowance, null, 0, `${plan} monthly allowance`, null, period.start);
  await run(
    tx,
    sql`UPDATE wallets SET period_anchor = ${anchor}, period_start = ${period.start}, period_end = ${period.end}, balance = ${allowance}
         WHERE user_id = ${userId}`,
  );
  return { period_anchor: anchor, period_start: period.start, period_end: period.end, balance: allowance, plan };
}

async function insertEntry(
  em: Em,
  userId: string,
  key: string,
  kind: string,
  amount: number,
  balanceAfter: number,
  cost: string | null,
  shortfall: number,
  reason: string,
  ref: string | null,
  periodStart: Date,
): Promise<string> {
  const row = await firstRow<{ id: string }>(
    em,
    sql`INSERT INTO ledger_entries (user_id, idempotency_key, kind, amount, balance_after, provider_cost_usd, shortfall, reason, ref, period_start)
     VALUES (${userId}, ${key}, ${kind}, ${amount}, ${balanceAfter}, ${cost}, ${shortfall}, ${reason}, ${ref}, ${periodStart}) RETURNING id`,
  );
  return String(row!.id);
}

/**
 * A charge or a hold made inside the caller's transaction (a card's stored result, a sentence's
 * save) is a step of it, not a savepoint: nothing catches its failure to go on without it, so a
 * savepoint only cost two more statements per paid call (SAVEPOINT, RELEASE). A new object each
 * time: MikroORM writes the transaction it ran in into the options it is given.
 */
const joinCallersTransaction = () => ({ propagation: 'required' }) as const;

/**
 * The one way credits are taken. Exactly one ledger entry per (user, idempotency key) whatever
 * is retried or raced: the wallet row lock serialises a user's charges, and the unique
 * constraint on the key is the backstop. Never below zero: an unaffordable charge takes what is
 * left and records the shortfall. Settles the unit's hold (same key, or `settlesHold`) in the same transaction.
 */
export async function charge(em: Em, request: ChargeRequest, options: { now?: Date; lockedWallet?: WalletRow } = {}): Promise<ChargeResult> {
  const credits = creditsForCost(request.kind, request.providerCostUsd);
  const now = options.now ?? new Date();
  const result = await em.transactional(async (tx): Promise<ChargeResult> => {
    // Locked already by the caller's statement in this transaction (WALLET_COLUMNS), or here.
    const wallet = options.lockedWallet
      ? await inCurrentPeriod(tx, request.userId, options.lockedWallet, now)
      : await lockCurrentWallet(tx, request.userId, now);
    const { debited, shortfall, balanceAfter } = applyCharge(wallet.balance, credits);
    // One statement under the wallet lock (it serialises the user's preparations): the hold
    // settled, the entry written unless the key already has one, and the balance taken.
    const row = await firstRow(tx, chargeStatement(request, wallet, { debited, shortfall, balanceAfter }));
    const existing = row!.existing;
    if (existing) {
      return {
        charged: false,
        credits: Math.abs(existing.amount) + existing.shortfall,
        debited: Math.abs(existing.amount),
        shortfall: existing.shortfall,
        balanceAfter: wallet.balance,
        entryId: String(existing.id),
      };
    }
    return { charged: true, credits, debited, shortfall, balanceAfter, entryId: String(row!.inserted_id) };
  }, joinCallersTransaction());
  if (result.charged) creditsCharged.inc({ kind: request.kind }, result.debited);
  return result;
}

const chargeStatement = preparedStatement(
  'credit_charge',
  (request: ChargeRequest, wallet: WalletRow, { debited, shortfall, balanceAfter }: { debited: number; shortfall: number; balanceAfter: number }) =>
    sql<{ inserted_id: string | null; existing: { id: string; amount: number; shortfall: number } | null }>`WITH released AS (
         DELETE FROM credit_holds WHERE user_id = ${request.userId} AND hold_key = ${request.settlesHold ?? request.idempotencyKey}
       ), existing AS (
         SELECT id, amount, shortfall FROM ledger_entries WHERE user_id = ${request.userId} AND idempotency_key = ${request.idempotencyKey}
       ), inserted AS (
         INSERT INTO ledger_entries (user_id, idempotency_key, kind, amount, balance_after, provider_cost_usd, shortfall, reason, ref, period_start)
         SELECT ${request.userId}, ${request.idempotencyKey}, ${request.kind}, ${-debited}, ${balanceAfter}, ${request.providerCostUsd},
         ${shortfall}, ${request.reason}, ${request.ref ?? null}, ${new Date(wallet.period_start)} WHERE NOT EXISTS (SELECT 1 FROM existing)
         RETURNING id
       ), debited AS (
         UPDATE wallets SET balance = ${balanceAfter} WHERE user_id = ${request.userId} AND EXISTS (SELECT 1 FROM inserted)
       )
       SELECT (SELECT id FROM inserted)::text AS inserted_id, (SELECT row_to_json(e) FROM existing e) AS existing`,
);

export async function getWallet(ctx: FeatureContext, userId: string, now = new Date()): Promise<WalletView> {
  const { wallet, held } = await ctx.em.transactional(async (tx) => {
    const wallet = await lockCurrentWallet(tx, userId, now);
    return { wallet, held: await heldCredits(tx, userId, null) };
  });
  return {
    balance: wallet.balance,
    held,
    plan: wallet.plan,
    monthlyAllowance: monthlyAllowance[wallet.plan],
    periodStart: new Date(wallet.period_start).toISOString(),
    periodEnd: new Date(wallet.period_end).toISOString(),
  };
}

/** A 402 that says whether the balance is spent (`empty`) or held by work in progress (`held`). */
export class InsufficientCredits extends AppError {
  readonly reason: 'empty' | 'held';
  constructor(reason: 'empty' | 'held', balance: number, held: number) {
    super(
      'insufficient_credits',
      reason === 'empty'
        ? 'No credits left in this period. They renew at the start of the next period.'
        : 'Every credit left is held by work in progress; retry once it has finished.',
      { balance, held },
    );
    this.reason = reason;
  }
}

// ---- Holds: credits reserved for a unit of work before its provider call ----

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
  let reserved = (await firstRow(em, holdReserve(request, now)))!;
  if (reserved.outcome === 'period_ended') {
    reserved = await em.transactional(async (tx) => {
      await lockCurrentWallet(tx, request.userId, now);
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

/** Credits held by the user's live holds, but for the one keyed `exceptKey`. */
async function heldCredits(tx: Em, userId: string, exceptKey: string | null): Promise<number> {
  const row = await firstRow<{ held: string }>(
    tx,
    sql`SELECT COALESCE(SUM(credits), 0)::text AS held FROM credit_holds
     WHERE user_id = ${userId} AND expires_at > now() AND (${exceptKey}::text IS NULL OR hold_key <> ${exceptKey}::text)`,
  );
  return Number(row!.held);
}

/** Operator action: a plan change starts a fresh period at the new plan's allowance. */
export async function setPlan(ctx: FeatureContext, userId: string, plan: Plan, now = new Date()): Promise<WalletView> {
  await ctx.em.transactional(async (tx) => {
    const wallet = await lockCurrentWallet(tx, userId, now);
    await run(tx, sql`UPDATE users SET plan = ${plan} WHERE id = ${userId}`);
    await startPeriod(tx, userId, wallet, now, plan, now);
  });
  return getWallet(ctx, userId, now);
}

/** A ledger line names what it paid for in at most this many characters. */
const LEDGER_SUBJECT_MAX = 80;

export async function listLedger(ctx: FeatureContext, userId: string, cursor: string | undefined, limit: number): Promise<LedgerPage> {
  const rows = await allRows<{
    id: string;
    kind: string;
    amount: number;
    balance_after: number;
    reason: string;
    ref: string | null;
    subject: string | null;
    created_at: Date;
  }>(
    ctx.em,
    // The subject is the learner's own text only: each lookup is bounded by the entry's user_id.
    sql`SELECT l.id, l.kind, l.amount, l.balance_after, l.reason, l.ref, l.created_at, left(CASE l.kind
         WHEN 'capture_preparation' THEN (SELECT coalesce(c.enrichment->>'correctedText', c.text) FROM cards c
           WHERE c.user_id = l.user_id AND c.id::text = l.ref)
         WHEN 'sentence_translation' THEN (SELECT s.original_text FROM sentences s WHERE s.user_id = l.user_id AND s.id::text = l.ref)
         WHEN 'audio' THEN (SELECT coalesce(coalesce(c.enrichment->>'correctedText', c.text), s.original_text) FROM audio_requests r
           LEFT JOIN cards c ON c.id = r.card_id LEFT JOIN sentences s ON s.id = r.sentence_id
           WHERE r.user_id = l.user_id AND r.audio_id::text = l.ref ORDER BY r.id LIMIT 1)
       END, ${LEDGER_SUBJECT_MAX}) AS subject
     FROM ledger_entries l
     WHERE l.user_id = ${userId} AND (${cursor ?? null}::bigint IS NULL OR l.id < ${cursor ?? null}::bigint) ORDER BY l.id DESC LIMIT ${limit + 1}`,
  );
  const items = rows.slice(0, limit).map((r) => ({
    id: String(r.id),
    kind: r.kind,
    amount: r.amount,
    balanceAfter: r.balance_after,
    reason: r.reason,
    ref: r.ref,
    subject: r.subject,
    createdAt: new Date(r.created_at).toISOString(),
  }));
  return { items, nextCursor: rows.length > limit ? items.at(-1)!.id : null };
}
