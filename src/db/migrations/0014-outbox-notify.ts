import { Migration } from '@mikro-orm/migrations';

/**
 * A new outbox row wakes the relays at its commit (NOTIFY is delivered then, and only if the
 * transaction commits), so the worker starts workflows at once and in batches, and no API
 * process spends its event loop on Temporal round trips. One notification per statement: a
 * relay pass takes every undispatched row anyway.
 */
export class OutboxNotify extends Migration {
  override name = '0014-outbox-notify';

  up() {
    this.addSql(`
      CREATE FUNCTION workflow_outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('workflow_outbox', '');
        RETURN NULL;
      END $$`);
    this.addSql(`CREATE TRIGGER workflow_outbox_notify AFTER INSERT ON workflow_outbox FOR EACH STATEMENT EXECUTE FUNCTION workflow_outbox_notify()`);
  }
}
