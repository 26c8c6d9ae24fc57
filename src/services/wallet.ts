import type { Em } from '../db/orm.ts';
import {
  type ChargeKind,
  type Plan,
  applyCharge,
  creditsForCost,
  monthlyAllowance,
  periodContaining,
} from '../domain/credits.ts';
import { AppError } from '../domain/problems.ts';

export interface WalletView {
  balance: number;
  plan: Plan;
  monthlyAllowance: number;
  periodStart: string;
  periodEnd: string;
}

export interface ChargeRequest {
  userId: string;
  /** Derived from the unit of work (e.g. `card-enrichment/<cardId>/attempt-2`); one entry per key, ever. */
  idempotencyKey: string;
  /** Exact decimal text of the provider's cost in USD. */
  providerCostUsd: string;
  kind: ChargeKind;
  reason: string;
  ref?: string | null;
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

interface WalletRow { period_anchor: Date; period_start: Date; period_end: Date; balance: number; plan: Plan }

/** Creates the wallet and the first period's grant. Called inside the sign-up transaction. */
export async function openWallet(em: Em, userId: string, plan: Plan, anchor: Date): Promise<void> {
  const period = periodContaining(anchor, anchor);
  await em.execute(
    `INSERT INTO wallets (user_id, period_anchor, period_start, period_end, balance) VALUES (?, ?, ?, ?, ?)`,
    [userId, anchor, period.start, period.end, monthlyAllowance[plan]],
  );
  await insertEntry(em, userId, `grant:${period.start.toISOString()}`, 'grant', monthlyAllowance[plan], monthlyAllowance[plan], null, 0, `${plan} monthly allowance`, null, period.start);
}

/**
 * Locks the wallet row for the rest of the transaction and rolls it into the current period
 * when the previous one has ended: the unused balance expires (a ledger entry says so) and the
 * plan's allowance is granted. Periods are computed on access; no scheduler is involved.
 */
async function lockCurrentWallet(tx: Em, userId: string, now: Date): Promise<WalletRow> {
  const [wallet] = await tx.execute<WalletRow[]>(
    `SELECT w.period_anchor, w.period_start, w.period_end, w.balance, u.plan
     FROM wallets w JOIN users u ON u.id = w.user_id WHERE w.user_id = ? FOR UPDATE OF w`,
    [userId],
  );
  if (!wallet) throw new AppError('not_found', 'No wallet for this account.');
  if (now < new Date(wallet.period_end)) return wallet;
  return startPeriod(tx, userId, wallet, new Date(wallet.period_anchor), wallet.plan, now);
}

async function startPeriod(tx: Em, userId: string, wallet: WalletRow, anchor: Date, plan: Plan, now: Date): Promise<WalletRow> {
  const period = periodContaining(anchor, now);
  const allowance = monthlyAllowance[plan];
  if (wallet.balance > 0) {
    await insertEntry(tx, userId, `expire:${new Date(wallet.period_start).toISOString()}:${period.start.toISOString()}`, 'expiry', -wallet.balance, 0, null, 0, 'unused credits expire at the end of the period', null, new Date(wallet.period_start));
  }
  await insertEntry(tx, userId, `grant:${period.start.toISOString()}`, 'grant', allowance, allowance, null, 0, `${plan} monthly allowance`, null, period.start);
  await tx.execute(
    `UPDATE wallets SET period_anchor = ?, period_start = ?, period_end = ?, balance = ? WHERE user_id = ?`,
    [anchor, period.start, period.end, allowance, userId],
  );
  return { period_anchor: anchor, period_start: period.start, period_end: period.end, balance: allowance, plan };
}

async function insertEntry(
  em: Em, userId: string, key: string, kind: string, amount: number, balanceAfter: number,
  cost: string | null, shortfall: number, reason: string, ref: string | null, periodStart: Date,
): Promise<string> {
  const [row] = await em.execute<{ id: string }[]>(
    `INSERT INTO ledger_entries (user_id, idempotency_key, kind, amount, balance_after, provider_cost_usd, shortfall, reason, ref, period_start)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    [userId, key, kind, amount, balanceAfter, cost, shortfall, reason, ref, periodStart],
  );
  return String(row!.id);
}

/**
 * The one way credits are taken. Exactly one ledger entry per (user, idempotency key) whatever
 * is retried or raced: the wallet row lock serialises a user's charges, and the unique
 * constraint on the key is the backstop. Never below zero: an unaffordable charge takes what is
 * left and records the shortfall.
 */
export async function charge(em: Em, request: ChargeRequest, now = new Date()): Promise<ChargeResult> {
  const credits = creditsForCost(request.kind, request.providerCostUsd);
  return em.transactional(async (tx) => {
    const wallet = await lockCurrentWallet(tx, request.userId, now);
    const [existing] = await tx.execute<{ id: string; amount: number; shortfall: number; balance_after: number }[]>(
      `SELECT id, amount, shortfall, balance_after FROM ledger_entries WHERE user_id = ? AND idempotency_key = ?`,
      [request.userId, request.idempotencyKey],
    );
    if (existing) {
      return { charged: false, credits: Math.abs(existing.amount) + existing.shortfall, debited: Math.abs(existing.amount), shortfall: existing.shortfall, balanceAfter: wallet.balance, entryId: String(existing.id) };
    }
    const { debited, shortfall, balanceAfter } = applyCharge(wallet.balance, credits);
    const entryId = await insertEntry(tx, request.userId, request.idempotencyKey, request.kind, -debited, balanceAfter, request.providerCostUsd, shortfall, request.reason, request.ref ?? null, new Date(wallet.period_start));
    await tx.execute(`UPDATE wallets SET balance = ? WHERE user_id = ?`, [balanceAfter, request.userId]);
    return { charged: true, credits, debited, shortfall, balanceAfter, entryId };
  });
}

export async function getWallet(em: Em, userId: string, now = new Date()): Promise<WalletView> {
  const wallet = await em.transactional((tx) => lockCurrentWallet(tx, userId, now));
  return {
    balance: wallet.balance,
    plan: wallet.plan,
    monthlyAllowance: monthlyAllowance[wallet.plan],
    periodStart: new Date(wallet.period_start).toISOString(),
    periodEnd: new Date(wallet.period_end).toISOString(),
  };
}

/** 402 before any model call when nothing is left. */
export async function assertHasCredits(em: Em, userId: string): Promise<void> {
  const { balance } = await getWallet(em, userId);
  if (balance <= 0) throw new AppError('insufficient_credits', 'No credits left in this period. They renew at the start of the next period.');
}

/** Operator action: a plan change starts a fresh period at the new plan's allowance. */
export async function setPlan(em: Em, userId: string, plan: Plan, now = new Date()): Promise<WalletView> {
  await em.transactional(async (tx) => {
    const wallet = await lockCurrentWallet(tx, userId, now);
    await tx.execute(`UPDATE users SET plan = ? WHERE id = ?`, [plan, userId]);
    await startPeriod(tx, userId, wallet, now, plan, now);
  });
  return getWallet(em, userId, now);
}

export interface LedgerEntryView { id: string; kind: string; amount: number; balanceAfter: number; reason: string; ref: string | null; createdAt: string }

export async function listLedger(em: Em, userId: string, cursor: string | undefined, limit: number) {
  const rows = await em.execute<{ id: string; kind: string; amount: number; balance_after: number; reason: string; ref: string | null; created_at: Date }[]>(
    `SELECT id, kind, amount, balance_after, reason, ref, created_at FROM ledger_entries
     WHERE user_id = ? AND (?::bigint IS NULL OR id < ?::bigint) ORDER BY id DESC LIMIT ?`,
    [userId, cursor ?? null, cursor ?? null, limit + 1],
  );
  const items: LedgerEntryView[] = rows.slice(0, limit).map((r) => ({
    id: String(r.id), kind: r.kind, amount: r.amount, balanceAfter: r.balance_after, reason: r.reason, ref: r.ref, createdAt: new Date(r.created_at).toISOString(),
  }));
  return { items, nextCursor: rows.length > limit ? items.at(-1)!.id : null };
}
