import { Migration } from '@mikro-orm/migrations';

/**
 * Rate limits as GCRA buckets (one timestamp per bucket) instead of fixed windows, and the
 * login failures behind the per-account backoff. Both are UNLOGGED, like the windows they
 * replace: after a crash they start empty, which only forgives recent traffic. Housekeeping
 * deletes the rows that no longer mean anything (src/services/retention.ts), oldest first by
 * the indexed timestamps.
 */
export class EdgeLimits extends Migration {
  override name = '0009-edge-limits';

  up() {
    this.addSql(`DROP TABLE rate_limit_windows`);
    this.addSql(`
      CREATE UNLOGGED TABLE rate_limit_buckets (
        bucket text PRIMARY KEY,
        tat timestamptz NOT NULL,
        allowed boolean NOT NULL
      )`);
    this.addSql(`CREATE INDEX rate_limit_buckets_tat_idx ON rate_limit_buckets (tat)`);
    // key: a hash of the account's email (alone, or with the client address), never the email itself.
    this.addSql(`
      CREATE UNLOGGED TABLE login_failures (
        key text PRIMARY KEY,
        failures integer NOT NULL,
        last_failure_at timestamptz NOT NULL
      )`);
    this.addSql(`CREATE INDEX login_failures_last_idx ON login_failures (last_failure_at)`);
  }
}
