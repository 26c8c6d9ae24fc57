import { Migration } from '@mikro-orm/migrations';

/**
 * What an import brings besides its expressions (issue 33):
 * - `library_import_rows.source`: where an expression was met, when its file says and the learner
 *   asked to keep it (a KOReader word's book title), kept on the import's row, never sent anywhere;
 * - `library_import_rows.history`: an Anki card's reviews (`{ reviews: [[revlogId, reviewedAtMs, ease], …] }`),
 *   when the learner asked for them, replayed through FSRS into the new card's schedule and review log;
 * - `library_imports.history_cards`, `history_reviews`: how many cards and reviews came that way (the outcome says so);
 * - `review_logs.anki_review_id`: the Anki review a log row came from, unique per card, so a resumed save writes it once.
 */
export class ImportSourcesAndHistory extends Migration {
  override name = '0026-import-sources-and-history';

  up() {
    this.addSql(`ALTER TABLE library_import_rows ADD COLUMN source text CHECK (char_length(source) BETWEEN 1 AND 200)`);
    this.addSql(`ALTER TABLE library_import_rows ADD COLUMN history jsonb`);
    this.addSql(`ALTER TABLE library_imports ADD COLUMN history_cards integer NOT NULL DEFAULT 0`);
    this.addSql(`ALTER TABLE library_imports ADD COLUMN history_reviews integer NOT NULL DEFAULT 0`);
    this.addSql(`ALTER TABLE review_logs ADD COLUMN anki_review_id bigint`);
    this.addSql(`CREATE UNIQUE INDEX review_logs_anki_review ON review_logs (card_id, anki_review_id) WHERE anki_review_id IS NOT NULL`);
  }
}
