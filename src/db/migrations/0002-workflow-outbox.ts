import { Migration } from '@mikro-orm/migrations';

export class WorkflowOutbox extends Migration {
  override name = '0002-workflow-outbox';

  up() {
    // Written in the same transaction as the row whose work it starts, so a crash between the
    // commit and the workflow start loses nothing: the relay starts what is left undispatched.
    this.addSql(`
      CREATE TABLE workflow_outbox (
        id bigserial PRIMARY KEY,
        workflow_type text NOT NULL,
        workflow_id text NOT NULL,
        task_queue text NOT NULL,
        args jsonb NOT NULL,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        kind text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        dispatched_at timestamptz,
        attempts integer NOT NULL DEFAULT 0,
        last_error text
      )`);
    this.addSql(`CREATE INDEX workflow_outbox_pending_idx ON workflow_outbox (created_at) WHERE dispatched_at IS NULL`);
  }
}
