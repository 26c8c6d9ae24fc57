import { Migration } from '@mikro-orm/migrations';

/**
 * One user must never change what another user gets.
 *
 * library_contains_pattern: the LIKE pattern of a library search. Escaping LIKE's wildcards has to
 * happen after folding, because unaccent folds ％ ﹪ to %, ＿ to _ and ＼ ∖ ﹨ to \: escaped before,
 * they came out of library_fold as live wildcards. IMMUTABLE like library_fold, so the planner
 * folds it into the trigram index condition on cards_search_idx.
 *
 * translation_contexts / translation_cache.context_id: which provider call each cached page
 * translation came from, because that decides who may be served it (src/domain/translation-
 * sharing.ts). An answer with no context came from a call that carried that one text; otherwise
 * its context lists the keys of every text of its call and who sent them. A text may now have one
 * answer alone and a few from calls with others. What the cache held before came from whole
 * batches of unknown origin, any item of which could have steered the others, so it is emptied
 * (it is a cache: texts are translated again on demand).
 *
 * audio_generation_starts: when each user started an audio generation, for the per-user quota
 * (src/features/audio/quota.ts). Rows older than the window are deleted as the user's next
 * request passes, so a user holds at most AUDIO_QUOTA_CLIPS rows.
 */
export class Isolation extends Migration {
  override name = '0011-isolation';

  up() {
    this.addSql(`
      CREATE FUNCTION library_contains_pattern(query text) RETURNS text
      LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
      AS $$ SELECT '%' || replace(replace(replace(library_fold(query), '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%' $$`);

    this.addSql(`DELETE FROM translation_cache`);
    this.addSql(`
      CREATE TABLE translation_contexts (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        requested_by uuid REFERENCES users (id) ON DELETE SET NULL,
        cache_keys text[] NOT NULL CHECK (cardinality(cache_keys) > 1),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    this.addSql(`ALTER TABLE translation_cache DROP CONSTRAINT translation_cache_pkey`);
    this.addSql(`ALTER TABLE translation_cache ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY`);
    this.addSql(`ALTER TABLE translation_cache ADD COLUMN context_id bigint REFERENCES translation_contexts (id) ON DELETE CASCADE`);
    // One answer per text and call; one answer per text alone (NULL context) too. Serves lookups by text.
    this.addSql(`CREATE UNIQUE INDEX translation_cache_answer_key ON translation_cache (cache_key, context_id) NULLS NOT DISTINCT`);

    this.addSql(`
      CREATE TABLE audio_generation_starts (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        started_at timestamptz NOT NULL DEFAULT now()
      )`);
    this.addSql(`CREATE INDEX audio_generation_starts_user_idx ON audio_generation_starts (user_id, started_at)`);
  }
}
