import { Migration } from '@mikro-orm/migrations';

/**
 * Generated audio. One clip per (spoken text, engine, voice, model), shared by every user who
 * asks for it; `audio_requests` says who asked (for which card or sentence), which is what
 * grants access. Bytes live in PostgreSQL (bytea): the worker writes them and any API process
 * reads them with no shared disk, in the same transaction that marks the clip ready.
 */
export class Audio extends Migration {
  override name = '0007-audio';

  up() {
    this.addSql(`
      CREATE TABLE audio_clips (
        id uuid PRIMARY KEY,
        audio_key text NOT NULL UNIQUE,
        engine text NOT NULL,
        voice text NOT NULL,
        model text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'ready', 'failed')),
        -- The text to speak, kept only while a generation is pending (cleared once it ends).
        pending_text text,
        -- Who started the current generation: the one charged for it.
        requested_by uuid REFERENCES users (id) ON DELETE SET NULL,
        attempt integer NOT NULL DEFAULT 1,
        content_type text,
        content bytea,
        byte_length integer,
        provider_cost_usd numeric,
        error_code text,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        CHECK (status <> 'ready' OR (content IS NOT NULL AND content_type IS NOT NULL))
      )`);
    this.addSql(`
      CREATE TABLE audio_requests (
        id bigserial PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        audio_id uuid NOT NULL REFERENCES audio_clips (id) ON DELETE CASCADE,
        card_id uuid REFERENCES cards (id) ON DELETE CASCADE,
        sentence_id uuid REFERENCES sentences (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK (num_nonnulls(card_id, sentence_id) = 1)
      )`);
    this.addSql(`CREATE UNIQUE INDEX audio_requests_link_key ON audio_requests (user_id, audio_id, card_id, sentence_id) NULLS NOT DISTINCT`);
    this.addSql(`CREATE INDEX audio_requests_audio_idx ON audio_requests (audio_id)`);
    this.addSql(`CREATE INDEX audio_requests_card_idx ON audio_requests (card_id) WHERE card_id IS NOT NULL`);
    this.addSql(`CREATE INDEX audio_requests_sentence_idx ON audio_requests (sentence_id) WHERE sentence_id IS NOT NULL`);
  }
}
