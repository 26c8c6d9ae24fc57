import { Migration } from '@mikro-orm/migrations';

/**
 * Output Flow drafts made under a client's Idempotency-Key: a repeat of the same request gets
 * the stored draft instead of a new (unpaid) model call; another body under the key is refused.
 */
export class Work extends Migration {
  override name = '0008-work';

  up() {
    this.addSql(`
      CREATE TABLE work_drafts (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        idempotency_key text NOT NULL,
        body_hash text NOT NULL,
        response jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, idempotency_key)
      )`);
  }
}
