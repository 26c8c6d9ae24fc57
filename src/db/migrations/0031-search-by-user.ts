import { Migration } from '@mikro-orm/migrations';

/**
 * A learner's search reads their own cards from the index, not everyone's. The trigram index
 * alone found every learner's matches: for a phrase in 90 of one learner's 100,000 cards and 900
 * among 1,000,000 (`npm run bench search`), 900 rows fetched and checked to keep 90, 13.6 ms
 * executed. With the user's id as the index's first column (btree_gin, trusted: the database's
 * owner creates it), 90 rows, 1.2 ms. Every search has the user's id (librarySearchCondition
 * beside ofUser), so the index without it serves nothing and goes.
 *
 * New cards wait in the index's pending list until it is merged, and every search reads all of
 * it: at PostgreSQL's default limit (4 MB, which autovacuum seldom empties on a large table) that
 * was 497 pages and 8–9 ms of every search. Held to 256 kB, an insert merges it more often.
 */
export class SearchByUser extends Migration {
  override name = '0031-search-by-user';

  up() {
    this.addSql(`CREATE EXTENSION IF NOT EXISTS btree_gin`);
    this.addSql(`CREATE INDEX cards_user_search_idx ON cards
      USING gin (user_id, library_fold(text || ' ' || coalesce(enrichment ->> 'translation', '')) gin_trgm_ops)
      WITH (gin_pending_list_limit = 256)`);
    this.addSql(`DROP INDEX cards_search_idx`);
  }
}
