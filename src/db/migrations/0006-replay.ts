import { Migration } from '@mikro-orm/migrations';

/** Issue #5: this area's tables. */
export class Replay extends Migration {
  override name = '0006-replay';

  up() {}
}
