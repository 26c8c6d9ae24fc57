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

/**
 * Takes the wallet row lock for the rest of the transaction, before rows that a charge locks after it,
 * rolling the wallet into the period of `now` when its own has ended.
 */
export async function lockWallet(tx: Em, userId: string, now = new Date()): Promise<void> {
  await lockCurrentWallet(tx, userId, now);
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
export const joinCallersTransaction = () => ({ propagation: 'required' }) as const;

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
    return { wallet, held: await heldCredits(tx, userId) };
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

/** Credits held by the user's live holds (./holds.ts). */
async function heldCredits(tx: Em, userId: string): Promise<number> {
  const row = await firstRow<{ held: string }>(
    tx,
    sql`SELECT COALESCE(SUM(credits), 0)::text AS held FROM credit_holds WHERE user_id = ${userId} AND expires_at > now()`,
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
