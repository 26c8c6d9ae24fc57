import { Migration } from '@mikro-orm/migrations';

export class Faults extends Migration {
  override name = '0012-faults';

  up() {
    // Model calls a card's preparation has made (src/features/library/preparation-rules.ts): bounded per
    // card over every retry and refresh. Existing cards start with a fresh budget.
    this.addSql(`ALTER TABLE cards ADD COLUMN preparation_calls integer NOT NULL DEFAULT 0`);
    // Leases (src/services/leases.ts): a sync sentence being translated and a claimed request_id
    // are held only while their owner renews them, so a retry after a crash takes over within
    // seconds. Async sentences belong to their workflow and carry none. A pending sync sentence or
    // running claim left from before is an orphan: its lease has lapsed already.
    this.addSql(`ALTER TABLE sentences ADD COLUMN lease_expires_at timestamptz`);
    this.addSql(`UPDATE sentences SET lease_expires_at = updated_at WHERE status = 'pending' AND mode = 'sync'`);
    this.addSql(`ALTER TABLE page_translation_requests ADD COLUMN lease_expires_at timestamptz NOT NULL DEFAULT clock_timestamp()`);
    // The outbox relay claims rows with a lease instead of holding row locks through its call to
    // Temporal (src/temporal/outbox-relay.ts). NULL: unclaimed.
    this.addSql(`ALTER TABLE workflow_outbox ADD COLUMN lease_expires_at timestamptz`);
  }
}
