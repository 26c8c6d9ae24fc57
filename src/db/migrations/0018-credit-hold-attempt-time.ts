import { Migration } from '@mikro-orm/migrations';

/**
 * A hold's call is ordered by when its attempt was scheduled (epoch ms), no longer by the
 * activity's attempt number: card preparation runs as a local activity, which a workflow task
 * that timed out (its worker died) runs again from attempt 1, so only the time tells the later
 * attempt that an earlier one's call never settled. Holds live seconds to minutes: the column is
 * replaced rather than converted (a call in flight at the migration is not reported lost).
 */
export class CreditHoldAttemptTime extends Migration {
  override name = '0018-credit-hold-attempt-time';

  up() {
    this.addSql(`ALTER TABLE credit_holds ADD COLUMN call_attempt_at bigint NOT NULL DEFAULT 0`);
    this.addSql(`ALTER TABLE credit_holds DROP COLUMN call_attempt`);
  }
}
