import { Migration } from '@mikro-orm/migrations';

/**
 * The library: one row per captured expression (`cards`) and its spaced-repetition state
 * (`card_schedules`). Other areas read these tables; the columns they rely on:
 *
 * cards
 *   id                 uuid, the API's `cardId`; a fresh one for every new capture (never reused,
 *                      so the workflow id `card-enrichment/<id>` is never reused across cards)
 *   user_id            owner (users.id, ON DELETE CASCADE)
 *   text               what the user captured, cleaned (trimmed, whitespace collapsed, NFC)
 *   normalised_key     normaliseExpression(text); UNIQUE per user → the dedup rule
 *   enrichment_status  'pending' | 'ready' | 'failed'
 *   enrichment         jsonb, set when ready: { translation, correctedText, correctionNote,
 *                      usage: { register, guidance, examples[] }, focuses: [{ kind, note }] }
 *   enrichment_error   jsonb { code, message } when failed, else null
 *   enrichment_attempt 1 for the first preparation, +1 per refresh (idempotency keys use it)
 *   created_at / updated_at / enriched_at
 *
 * card_schedules (one row per card, created with the card: the card is in the learning queue at once)
 *   card_id → cards.id ON DELETE CASCADE; user_id (denormalised for "due cards of a user");
 *   the SchedulingState of src/domain/scheduling.ts in snake_case: due, stability, difficulty,
 *   elapsed_days, scheduled_days, learning_steps, reps, lapses, state, last_review.
 *   Tables of later areas that belong to a card reference cards(id) ON DELETE CASCADE, so
 *   deleting a card removes all of its learning data in one statement.
 */
export class Library extends Migration {
  override name = '0003-library';

  up() {
    // unaccent() is only STABLE (it reads a dictionary chosen by search_path), so it cannot be
    // used in an index. Naming the dictionary with its schema makes the result depend on the
    // input only, which is what IMMUTABLE promises; the search index is built on this function.
    this.addSql(`
      CREATE FUNCTION library_fold(value text) RETURNS text
      LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
      AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, value)) $$`);
    this.addSql(`
      CREATE TABLE cards (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        text text NOT NULL,
        normalised_key text NOT NULL,
        enrichment_status text NOT NULL DEFAULT 'pending' CHECK (enrichment_status IN ('pending', 'ready', 'failed')),
        enrichment jsonb,
        enrichment_error jsonb,
        enrichment_attempt integer NOT NULL DEFAULT 1,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        enriched_at timestamptz
      )`);
    this.addSql(`CREATE UNIQUE INDEX cards_user_key ON cards (user_id, normalised_key)`);
    // Listing order (newest first) and keyset pagination.
    this.addSql(`CREATE INDEX cards_user_created_idx ON cards (user_id, created_at DESC, id DESC)`);
    // Search: case- and accent-insensitive substring match on text and translation.
    this.addSql(`
      CREATE INDEX cards_search_idx ON cards
      USING gin (library_fold(text || ' ' || coalesce(enrichment ->> 'translation', '')) gin_trgm_ops)`);
    this.addSql(`
      CREATE TABLE card_schedules (
        card_id uuid PRIMARY KEY REFERENCES cards (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        due timestamptz NOT NULL,
        stability double precision NOT NULL,
        difficulty double precision NOT NULL,
        elapsed_days integer NOT NULL,
        scheduled_days integer NOT NULL,
        learning_steps integer NOT NULL,
        reps integer NOT NULL,
        lapses integer NOT NULL,
        state text NOT NULL CHECK (state IN ('new', 'learning', 'review', 'relearning')),
        last_review timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    this.addSql(`CREATE INDEX card_schedules_user_due_idx ON card_schedules (user_id, due)`);
  }
}
