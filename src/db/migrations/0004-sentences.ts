import { Migration } from '@mikro-orm/migrations';

export class Sentences extends Migration {
  override name = '0004-sentences';

  up() {
    // `dedup_key` is normaliseExpression(original_text): the unique index makes "same sentence
    // again" a 409 even when identical posts race. `attempt` counts translation runs (a failed
    // sentence posted again is retried) and keys the charge, so each run is billed at most once.
    this.addSql(`
      CREATE TABLE sentences (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        original_text text NOT NULL,
        dedup_key text NOT NULL,
        translation text,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'translated', 'failed')),
        native_language text NOT NULL,
        mode text NOT NULL CHECK (mode IN ('sync', 'async')),
        attempt integer NOT NULL DEFAULT 1,
        error_code text,
        credits_charged integer,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    this.addSql(`CREATE UNIQUE INDEX sentences_user_dedup_key ON sentences (user_id, dedup_key)`);
    this.addSql(`CREATE INDEX sentences_user_newest_idx ON sentences (user_id, created_at DESC, id DESC)`);
  }
}
