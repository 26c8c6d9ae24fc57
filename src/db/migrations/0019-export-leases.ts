import { Migration } from '@mikro-orm/migrations';

/**
 * One library export in flight per user, whichever API process serves it: the export holds this
 * row's lease while it streams and renews it (src/services/leases.ts), and deletes it when done.
 * A process that dies leaves a lease that lapses within seconds.
 */
export class ExportLeases extends Migration {
  override name = '0019-export-leases';

  up() {
    this.addSql(`CREATE TABLE export_leases (
      user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
      holder text NOT NULL,
      lease_expires_at timestamptz NOT NULL
    )`);
  }
}
