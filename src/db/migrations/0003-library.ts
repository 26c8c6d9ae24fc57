import { Migration } from '@mikro-orm/migrations';

/** Issue #3: this area's tables. */
export class Library extends Migration {
  override name = '0003-library';

  up() {}
}
