import { Migration } from '@mikro-orm/migrations';

/**
 * Provider outages are waited out (src/domain/retry-policy.ts, PROVIDER_WAIT):
 * - `provider_breakers`: one circuit breaker per provider (src/services/provider-breaker.ts), shared
 *   by every process, so that while a provider is down one probe calls it instead of every waiting card.
 * - `waiting_since` on cards and sentences: when their background work began waiting for the provider
 *   (NULL when it is not waiting), shown as `enrichmentWaiting` on a card and `waiting` on a sentence.
 */
export class ProviderOutages extends Migration {
  override name = '0020-provider-outages';

  up() {
    this.addSql(`CREATE TABLE provider_breakers (
      provider text PRIMARY KEY,
      state text NOT NULL DEFAULT 'closed' CHECK (state IN ('closed', 'open', 'half_open')),
      failures integer NOT NULL DEFAULT 0,
      opened_count integer NOT NULL DEFAULT 0,
      retry_at timestamptz,
      probe_expires_at timestamptz,
      updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )`);
    this.addSql(`ALTER TABLE cards ADD COLUMN waiting_since timestamptz`);
    this.addSql(`ALTER TABLE sentences ADD COLUMN waiting_since timestamptz`);
  }
}
