import { Migration } from '@mikro-orm/migrations';

/**
 * Replay that teaches (issue 15): the time the learner took over an item, kept beside the rest of
 * the evidence in the review log, so a rating can be explained and the optimiser can use it later.
 */
export class ReplayTeaching extends Migration {
  override name = '0014-replay-teaching';

  up() {
    this.addSql(`ALTER TABLE review_logs ADD COLUMN duration_ms integer CHECK (duration_ms >= 0)`);
  }
}
