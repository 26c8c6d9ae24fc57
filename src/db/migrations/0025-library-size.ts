import { Migration } from '@mikro-orm/migrations';

/**
 * A library's size, bounded per plan (issue 33): `users.card_count`, kept by statement-level
 * triggers on `cards` (one UPDATE per statement and learner, however many rows an import's batch
 * inserts), so a capture checks the bound by reading one row it locks anyway rather than counting
 * up to 20,000 cards.
 */
export class LibrarySize extends Migration {
  override name = '0025-library-size';

  up() {
    this.addSql(`ALTER TABLE users ADD COLUMN card_count integer NOT NULL DEFAULT 0`);
    this.addSql(`UPDATE users u SET card_count = c.n FROM (SELECT user_id, count(*)::int AS n FROM cards GROUP BY user_id) c WHERE c.user_id = u.id`);
    this.addSql(`
      CREATE FUNCTION cards_counted_in() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE users u SET card_count = u.card_count + n.n
        FROM (SELECT user_id, count(*)::int AS n FROM new_cards GROUP BY user_id) n WHERE u.id = n.user_id;
        RETURN NULL;
      END $$`);
    this.addSql(`
      CREATE FUNCTION cards_counted_out() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE users u SET card_count = greatest(0, u.card_count - o.n)
        FROM (SELECT user_id, count(*)::int AS n FROM old_cards GROUP BY user_id) o WHERE u.id = o.user_id;
        RETURN NULL;
      END $$`);
    this.addSql(
      `CREATE TRIGGER cards_count_in AFTER INSERT ON cards REFERENCING NEW TABLE AS new_cards FOR EACH STATEMENT EXECUTE FUNCTION cards_counted_in()`,
    );
    this.addSql(
      `CREATE TRIGGER cards_count_out AFTER DELETE ON cards REFERENCING OLD TABLE AS old_cards FOR EACH STATEMENT EXECUTE FUNCTION cards_counted_out()`,
    );
  }
}
