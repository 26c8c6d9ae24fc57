import { Migration } from '@mikro-orm/migrations';

/**
 * A link back to the moment (issue 36): `card_contexts.source_url`, where the learner met the
 * sentence (a video's address at that second), kept only when the learner's extension was asked
 * to. http(s) and bounded, as the API takes it (SOURCE_URL_MAX); NULL for every context before.
 */
export class ContextSourceUrls extends Migration {
  override name = '0030-context-source-urls';

  up() {
    this.addSql(`ALTER TABLE card_contexts ADD COLUMN source_url text
      CHECK (source_url IS NULL OR (char_length(source_url) <= 2048 AND source_url ~ '^https?://'))`);
  }
}
