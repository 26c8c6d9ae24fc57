import { Migration } from '@mikro-orm/migrations';

/**
 * The learner's "Prepare when my credits renew" choice (off unless they turn it on), and the
 * cards it concerns found by index: those whose preparation failed for want of credits, by learner
 * and by when they failed (a card waits for the first period that starts after its failure).
 */
export class PrepareOnRenewal extends Migration {
  override name = '0021-prepare-on-renewal';

  up() {
    this.addSql(`ALTER TABLE users ADD COLUMN prepare_on_renewal boolean NOT NULL DEFAULT false`);
    this.addSql(`CREATE INDEX cards_waiting_for_credits_idx ON cards (user_id, updated_at)
      WHERE enrichment_status = 'failed' AND enrichment_error->>'code' = 'insufficient_credits'`);
  }
}
