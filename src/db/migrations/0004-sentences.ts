import { Migration } from '@mikro-orm/migrations';

/** Issue #4: this area's tables. */
export class Sentences extends Migration {
  override name = '0004-sentences';

  up() {}
}
