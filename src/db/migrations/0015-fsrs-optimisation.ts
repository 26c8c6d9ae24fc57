import { Migration } from '@mikro-orm/migrations';

/**
 * The personal FSRS optimiser (docs/replay-schedule.md): each fit is keyed by the workflow that made it, so a
 * retried activity finds the version its first attempt stored instead of adding another.
 */
export class FsrsOptimisation extends Migration {
  override name = '0015-fsrs-optimisation';

  up() {
    this.addSql(`ALTER TABLE fsrs_parameters ADD COLUMN run_key text NOT NULL UNIQUE`);
  }
}
