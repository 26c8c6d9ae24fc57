import { Migration } from '@mikro-orm/migrations';

/**
 * Where an imported expression was met, when its file says and the learner asked to keep it (a
 * KOReader word's book title): kept on the import's row, shown with it, never sent anywhere.
 */
export class ImportRowSources extends Migration {
  override name = '0026-import-row-sources';

  up() {
    this.addSql(`ALTER TABLE library_import_rows ADD COLUMN source text CHECK (char_length(source) BETWEEN 1 AND 200)`);
  }
}
