import { Migration } from '@mikro-orm/migrations';

/**
 * Imports (issue 26): a learner's list of expressions brought in at once, captured by the
 * `library-import/<importId>` workflow. The text lives here, never in Temporal's history: the
 * workflow carries the import's id only. `idempotency_key` is the client's `Idempotency-Key` or
 * `sha256:` of the content, so the same file sent twice is the same import (a cancelled import
 * gives its key up). At most one import per learner runs at a time.
 */
export class LibraryImports extends Migration {
  override name = '0022-library-imports';

  up() {
    this.addSql(`
      CREATE TABLE library_imports (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        idempotency_key text NOT NULL,
        content_sha256 text NOT NULL,
        format text NOT NULL,
        file_name text,
        state text NOT NULL DEFAULT 'saving' CHECK (state IN ('saving', 'preparing', 'waiting_for_credits', 'completed', 'cancelled')),
        total integer NOT NULL,
        skipped jsonb NOT NULL DEFAULT '{}'::jsonb,
        problems jsonb NOT NULL DEFAULT '[]'::jsonb,
        problems_total integer NOT NULL DEFAULT 0,
        resume_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      )`);
    this.addSql(`CREATE UNIQUE INDEX library_imports_key ON library_imports (user_id, idempotency_key) WHERE state <> 'cancelled'`);
    this.addSql(`CREATE UNIQUE INDEX library_imports_one_running ON library_imports (user_id) WHERE state IN ('saving', 'preparing', 'waiting_for_credits')`);
    this.addSql(`CREATE INDEX library_imports_user_created_idx ON library_imports (user_id, created_at DESC)`);
    this.addSql(`
      CREATE TABLE library_import_rows (
        import_id uuid NOT NULL REFERENCES library_imports (id) ON DELETE CASCADE,
        position integer NOT NULL,
        line integer NOT NULL,
        text text NOT NULL,
        context text,
        card_id uuid REFERENCES cards (id) ON DELETE SET NULL,
        outcome text CHECK (outcome IN ('new', 'reused')),
        started_at timestamptz,
        PRIMARY KEY (import_id, position)
      )`);
    this.addSql(`CREATE INDEX library_import_rows_card_idx ON library_import_rows (card_id) WHERE card_id IS NOT NULL`);
  }
}
