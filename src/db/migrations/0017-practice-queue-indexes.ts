import { Migration } from '@mikro-orm/migrations';

/**
 * Opening a Replay session reads the first due reviewed cards and the first new cards of a user,
 * each in (due, card_id) order, 50 at most (features/library/card-reads.ts, practiceCandidates).
 * On (user_id, due) alone, each half walks past the other kind of card: new cards captured long
 * ago come before every due review, so a learner with thousands of them had thousands of rows
 * read per session. One partial index per kind, in the query's order, reads 50 rows; before
 * statistics exist it still reads one kind only (docs/performance.md, "Replay").
 */
export class PracticeQueueIndexes extends Migration {
  override name = '0017-practice-queue-indexes';

  up() {
    this.addSql(`CREATE INDEX card_schedules_user_new_due_idx ON card_schedules (user_id, due, card_id) WHERE state = 'new'`);
    this.addSql(`CREATE INDEX card_schedules_user_seen_due_idx ON card_schedules (user_id, due, card_id) WHERE state <> 'new'`);
  }
}
