import { Migration } from '@mikro-orm/migrations';

export class PageTranslation extends Migration {
  override name = '0005-page-translation';

  up() {
    // One row per (user, request_id): the idempotency record. A request is claimed by inserting
    // its row as 'running' (ON CONFLICT decides the race); `claim_token` tells the claimant apart
    // from a later one that took over a stale claim. Only a finished request keeps its row: a
    // failure deletes it so the same request_id can be retried.
    this.addSql(`
      CREATE TABLE page_translation_requests (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        request_id text NOT NULL,
        body_hash text NOT NULL,
        status text NOT NULL CHECK (status IN ('running', 'done')),
        claim_token uuid NOT NULL,
        claimed_at timestamptz NOT NULL DEFAULT now(),
        response jsonb,
        credits_charged integer,
        completed_at timestamptz,
        PRIMARY KEY (user_id, request_id)
      )`);
    // Shared by every user. The key is a hash of (prompt version, model, language pair, normalised
    // text), so the source text itself is not stored; the translation is.
    this.addSql(`
      CREATE TABLE translation_cache (
        cache_key text PRIMARY KEY,
        source_language text NOT NULL,
        target_language text NOT NULL,
        model text NOT NULL,
        prompt_version text NOT NULL,
        translation text NOT NULL CHECK (translation <> ''),
        detected_source_language text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }
}
