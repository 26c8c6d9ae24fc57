import { Migration } from '@mikro-orm/migrations';

/** Issue #5: this area's tables. */
export class Audio extends Migration {
  override name = '0007-audio';

  up() {}
}
