import { Migration } from '@mikro-orm/migrations';

/**
 * Guided Replay: sessions, their items (one card each, with the mask fixed when the item was
 * created) and the review log (one row per completed item, the FSRS review as it happened, so
 * history can be replayed, undone or used to fit parameters). Everything that belongs to a card
 * goes with it (ON DELETE CASCADE).
 */
export class Replay extends Migration {
  override name = '0006-replay';

  up() {
    this.addSql(`
      CREATE TABLE replay_sessions (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        requested_count integer NOT NULL CHECK (requested_count IN (10, 20, 50)),
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      )`);
    // At most one open session per user: the backstop behind the per-user advisory lock.
    this.addSql(`CREATE UNIQUE INDEX replay_sessions_one_open ON replay_sessions (user_id) WHERE finished_at IS NULL`);
    this.addSql(`
      CREATE TABLE replay_items (
        id uuid PRIMARY KEY,
        session_id uuid NOT NULL REFERENCES replay_sessions (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        card_id uuid NOT NULL REFERENCES cards (id) ON DELETE CASCADE,
        position integer NOT NULL,
        -- The English the mask was built for, so the mask stays valid for this item.
        answer text NOT NULL,
        mask text NOT NULL,
        completed_at timestamptz,
        rating text CHECK (rating IN ('again', 'hard', 'good', 'easy')),
        next_review_at timestamptz,
        CHECK ((completed_at IS NULL) = (rating IS NULL)),
        UNIQUE (session_id, card_id),
        UNIQUE (session_id, position)
      )`);
    this.addSql(`CREATE INDEX replay_items_open_idx ON replay_items (session_id, position) WHERE completed_at IS NULL`);
    this.addSql(`CREATE INDEX replay_items_card_idx ON replay_items (card_id)`);
    this.addSql(`
      CREATE TABLE review_logs (
        id bigserial PRIMARY KEY,
        card_id uuid NOT NULL REFERENCES cards (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        -- One review per item, whatever is retried or raced.
        replay_item_id uuid UNIQUE REFERENCES replay_items (id) ON DELETE SET NULL,
        rating text NOT NULL CHECK (rating IN ('again', 'hard', 'good', 'easy')),
        -- The card before the review (ts-fsrs ReviewLog convention), enough to roll it back.
        state text NOT NULL CHECK (state IN ('new', 'learning', 'review', 'relearning')),
        due timestamptz NOT NULL,
        stability double precision NOT NULL,
        difficulty double precision NOT NULL,
        elapsed_days integer NOT NULL,
        last_elapsed_days integer NOT NULL,
        scheduled_days integer NOT NULL,
        learning_steps integer NOT NULL,
        reviewed_at timestamptz NOT NULL,
        -- The evidence the rating came from.
        used_hint boolean NOT NULL,
        auto_filled boolean NOT NULL,
        unaided_errors integer NOT NULL CHECK (unaided_errors >= 0),
        hidden_count integer NOT NULL
      )`);
    this.addSql(`CREATE INDEX review_logs_card_idx ON review_logs (card_id, reviewed_at)`);
    this.addSql(`CREATE INDEX review_logs_user_idx ON review_logs (user_id, reviewed_at)`);
  }
}
