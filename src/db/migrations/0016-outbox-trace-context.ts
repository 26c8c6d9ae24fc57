import { Migration } from '@mikro-orm/migrations';

/**
 * The trace a workflow start belongs to (W3C `traceparent`, from src/platform/telemetry.ts): the
 * relay starts the workflow inside it, so the request, the workflow and its activities make one
 * trace. Null when tracing is off. Ids only, never user text.
 */
export class OutboxTraceContext extends Migration {
  override name = '0016-outbox-trace-context';

  up() {
    this.addSql(`ALTER TABLE workflow_outbox ADD COLUMN trace_context jsonb`);
  }
}
