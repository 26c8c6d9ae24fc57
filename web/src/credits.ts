// Pure rules about credits as the page shows them (the service's wallet and ledger, read as they are).

export interface Wallet {
  balance: number;
  held: number;
  monthlyAllowance: number;
}
export interface LedgerEntry {
  kind: string;
  amount: number;
  ref: string | null;
  createdAt: string;
}

/** Below this share of the plan's allowance the page warns: a few captures may be all that is left. */
const LOW_SHARE = 0.1;

/** What new work may still hold: the balance less what work in progress holds. */
export const available = (wallet: Wallet) => Math.max(0, wallet.balance - wallet.held);

export const isLow = (wallet: Wallet) => available(wallet) < wallet.monthlyAllowance * LOW_SHARE;

/** What the latest charge of `kind` cost (a positive number), or null when there was none yet. */
export function lastCost(entries: readonly LedgerEntry[], kind: string): number | null {
  const latest = entries.find((e) => e.kind === kind && e.amount < 0);
  return latest ? -latest.amount : null;
}

/** What the work on `ref` (a card, a sentence) was charged so far, or null when nothing was. */
export function chargedFor(entries: readonly LedgerEntry[], ref: string): number | null {
  const charges = entries.filter((e) => e.ref === ref && e.amount < 0);
  return charges.length ? -charges.reduce((sum, e) => sum + e.amount, 0) : null;
}

export const credits = (n: number) => `${n.toLocaleString('en')} credit${n === 1 ? '' : 's'}`;
