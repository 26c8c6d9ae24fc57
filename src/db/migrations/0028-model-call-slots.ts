import { Migration } from '@mikro-orm/migrations';

/**
 * Your own model (issue 34): `model_call_slots`, the deployment's MODEL_MAX_CONCURRENCY slots
 * (src/services/model-slots.ts). A row per endpoint and slot, seeded on demand; a slot is taken while
 * its lease has not lapsed, so a process that dies holding one frees it within the lease.
 */
export class ModelCallSlots extends Migration {
  override name = '0028-model-call-slots';

  up() {
    this.addSql(`CREATE TABLE model_call_slots (
      endpoint text NOT NULL,
      slot integer NOT NULL CHECK (slot >= 0),
      holder uuid,
      lease_expires_at timestamptz NOT NULL DEFAULT '-infinity',
      PRIMARY KEY (endpoint, slot)
    )`);
  }
}
