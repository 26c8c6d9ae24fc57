import { Migration } from '@mikro-orm/migrations';

/**
 * One import file read per learner at a time, whichever API process reads it (issue 33): the read
 * holds this row's lease while its reader thread runs, renews it (src/services/leases.ts), and
 * deletes it when the thread has answered, failed or been ended. A process that dies mid-read
 * leaves a lease that lapses within seconds.
 */
export class ImportReadLeases extends Migration {
  override name = '0029-import-read-leases';

  up() {
    this.addSql(`CREATE TABLE import_read_leases (
      user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
      holder text NOT NULL,
      lease_expires_at timestamptz NOT NULL
    )`);
  }
}
