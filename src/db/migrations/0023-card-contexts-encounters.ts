import { Migration } from '@mikro-orm/migrations';

/**
 * Expressions in their own context (issue 27):
 * - `card_contexts`: the sentences a learner met a card's expression in, their own examples. The
 *   expression's place in the sentence is computed once, server-side (`mark_start`, `mark_end`:
 *   code points, end exclusive). `context_key` (the sentence normalised as captures are) keeps one
 *   row per sentence; at most 20 per card, the first and the newest (src/features/library/contexts.ts).
 * - `cards.prepared_context_id`: the context the card's preparation chose its sense for (null: none,
 *   or that context is gone); "prepare this sense" points it at another one. `cards.sense_attempt`:
 *   the preparation attempt that "prepare this sense" last started, whose workflow id is its own
 *   (`card-enrichment/<cardId>/sense-<attempt>`: the card's first run completed, and a completed
 *   id is never started again).
 * - `card_encounters`: each time the learner met a card's expression on a page, one row per card and
 *   page view (`page_view_id`: a random id the client makes per page view, never its address). Only
 *   the card and the time: never the page's text. Housekeeping keeps them for a bounded time; the
 *   card's totals (`met_count`, `last_met_at`) stay.
 * - `encounter_days`: how many encounters a user recorded on a UTC day (the daily limit).
 * - `replay_items.context_id`, `context_mask`: the learner's own sentence a Replay item may be
 *   prompted with instead of the translation (a cloze of the expression inside it), and its mask;
 *   `review_logs.prompt`: which prompt the learner chose ('translation' or 'context').
 * Everything references the card ON DELETE CASCADE: deleting a card deletes its contexts and encounters.
 */
export class CardContextsEncounters extends Migration {
  override name = '0023-card-contexts-encounters';

  up() {
    this.addSql(`
      CREATE TABLE card_contexts (
        id uuid PRIMARY KEY,
        card_id uuid NOT NULL REFERENCES cards (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        text text NOT NULL CHECK (char_length(text) BETWEEN 1 AND 500),
        context_key text NOT NULL,
        mark_start integer NOT NULL CHECK (mark_start >= 0),
        mark_end integer NOT NULL CHECK (mark_end > mark_start),
        created_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    this.addSql(`CREATE UNIQUE INDEX card_contexts_card_key ON card_contexts (card_id, context_key)`);
    this.addSql(`CREATE INDEX card_contexts_card_created_idx ON card_contexts (card_id, created_at, id)`);
    this.addSql(`ALTER TABLE cards ADD COLUMN prepared_context_id uuid REFERENCES card_contexts (id) ON DELETE SET NULL`);
    this.addSql(`ALTER TABLE cards ADD COLUMN sense_attempt integer`);
    this.addSql(`ALTER TABLE cards ADD COLUMN met_count integer NOT NULL DEFAULT 0 CHECK (met_count >= 0)`);
    this.addSql(`ALTER TABLE cards ADD COLUMN last_met_at timestamptz(3)`);
    // The library's "met most often" order and its keyset pagination.
    this.addSql(`CREATE INDEX cards_user_met_idx ON cards (user_id, met_count DESC, created_at DESC, id DESC)`);
    this.addSql(`
      CREATE TABLE card_encounters (
        card_id uuid NOT NULL REFERENCES cards (id) ON DELETE CASCADE,
        page_view_id uuid NOT NULL,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        met_at timestamptz(3) NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (card_id, page_view_id)
      )`);
    this.addSql(`CREATE INDEX card_encounters_recorded_idx ON card_encounters (recorded_at)`);
    this.addSql(`
      CREATE TABLE encounter_days (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        day date NOT NULL,
        recorded integer NOT NULL CHECK (recorded >= 0),
        PRIMARY KEY (user_id, day)
      )`);
    this.addSql(`ALTER TABLE replay_items ADD COLUMN context_id uuid REFERENCES card_contexts (id) ON DELETE SET NULL`);
    this.addSql(`ALTER TABLE replay_items ADD COLUMN context_mask text`);
    this.addSql(`CREATE INDEX replay_items_context_idx ON replay_items (context_id) WHERE context_id IS NOT NULL`);
    this.addSql(`ALTER TABLE review_logs ADD COLUMN prompt text NOT NULL DEFAULT 'translation' CHECK (prompt IN ('translation', 'context'))`);
  }
}
