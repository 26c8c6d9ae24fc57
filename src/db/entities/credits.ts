import { defineEntity, p } from '@mikro-orm/postgresql';

/** One row per user: the current period and its balance. Charges lock it (SELECT … FOR UPDATE). */
export const Wallet = defineEntity({
  name: 'Wallet',
  tableName: 'wallets',
  properties: {
    userId: p.uuid().primary(),
    periodAnchor: p.datetime(),
    periodStart: p.datetime(),
    periodEnd: p.datetime(),
    balance: p.integer(),
  },
});

/** Append-only: a grant opens each period, every charge is one entry, unique per idempotency key. */
export const LedgerEntry = defineEntity({
  name: 'LedgerEntry',
  tableName: 'ledger_entries',
  properties: {
    id: p.bigint().primary().autoincrement(),
    userId: p.uuid(),
    idempotencyKey: p.string(),
    kind: p.string(),
    amount: p.integer(),
    balanceAfter: p.integer(),
    providerCostUsd: p.decimal().nullable(),
    shortfall: p.integer(),
    reason: p.string(),
    ref: p.string().nullable(),
    periodStart: p.datetime(),
    createdAt: p.datetime(),
  },
});
