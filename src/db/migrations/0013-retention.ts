import { Migration } from '@mikro-orm/migrations';

/**
 * What housekeeping (src/services/retention.ts) needs: an index per sweep, so that each batch
 * finds its oldest rows without a sequential scan, and a record of when audio clips lost a link.
 */
export class Retention extends Migration {
  override name = '0013-retention';

  up() {
    this.addSql(`CREATE INDEX workflow_outbox_dispatched_idx ON workflow_outbox (dispatched_at) WHERE dispatched_at IS NOT NULL`);
    // A finished record's age counts from its completion, an abandoned claim's from its claim.
    this.addSql(`CREATE INDEX page_translation_requests_activity_idx ON page_translation_requests ((coalesce(completed_at, claimed_at)))`);
    this.addSql(`CREATE INDEX work_drafts_created_idx ON work_drafts (created_at)`);
    this.addSql(`CREATE INDEX sessions_expires_idx ON sessions (expires_at)`);
    this.addSql(`CREATE INDEX translation_cache_created_idx ON translation_cache (created_at)`);
    // Answers of calls that carried one text go by themselves, oldest first; the cache's other
    // calls (0011) go as their contexts, and their answers by cascade, found by context.
    this.addSql(`CREATE INDEX translation_cache_alone_created_idx ON translation_cache (created_at) WHERE context_id IS NULL`);
    this.addSql(`CREATE INDEX translation_contexts_created_idx ON translation_contexts (created_at)`);
    this.addSql(`CREATE INDEX translation_cache_context_idx ON translation_cache (context_id) WHERE context_id IS NOT NULL`);
    // The rate-limit and login-failure tables have their sweep indexes from 0009.

    // Links to a clip disappear by cascade (a card, sentence or user deleted), which no service
    // sees: the trigger writes down when. The log is append-only, so recording an unlink never
    // waits on the clip's row lock (a request linking the clip holds it).
    this.addSql(`
      CREATE TABLE audio_unlinks (
        id bigserial PRIMARY KEY,
        audio_id uuid NOT NULL,
        unlinked_at timestamptz NOT NULL DEFAULT now()
      )`);
    this.addSql(`CREATE INDEX audio_unlinks_at_idx ON audio_unlinks (unlinked_at)`);
    this.addSql(`CREATE INDEX audio_unlinks_audio_idx ON audio_unlinks (audio_id, unlinked_at)`);
    this.addSql(`
      CREATE FUNCTION record_audio_unlink() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO audio_unlinks (audio_id) VALUES (OLD.audio_id);
        RETURN NULL;
      END $$`);
    this.addSql(`CREATE TRIGGER audio_requests_unlinked AFTER DELETE ON audio_requests FOR EACH ROW EXECUTE FUNCTION record_audio_unlink()`);
    // Clips already without a link start their grace time now.
    this.addSql(
      `INSERT INTO audio_unlinks (audio_id) SELECT c.id FROM audio_clips c WHERE NOT EXISTS (SELECT 1 FROM audio_requests r WHERE r.audio_id = c.id)`,
    );
  }
}
