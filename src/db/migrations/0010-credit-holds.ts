import { Migration } from '@mikro-orm/migrations';

/**
 * Credits held by units of work whose provider call is under way (see src/features/credits/wallet.ts):
 * one row per unit (the same key as its ledger entry), so a retried activity finds its own
 * hold. `call_in_flight` and `call_attempt` tell a retry that an earlier attempt's call never
 * settled: its result was lost, and its cost is provider spend nobody paid for.
 */
export class CreditHolds extends Migration {
  override name = '0010-credit-holds';

  up() {
    this.addSql(`
      CREATE TABLE credit_holds (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        hold_key text NOT NULL,
        task text NOT NULL,
        credits integer NOT NULL CHECK (credits >= 0),
        call_in_flight boolean NOT NULL DEFAULT false,
        call_attempt integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (user_id, hold_key)
      )`);
  }
}
