import { Migration } from '@mikro-orm/migrations';

/** Issue #4: this area's tables. */
export class PageTranslation extends Migration {
  override name = '0005-page-translation';

  up() {}
}
