import { Migration } from '@mikro-orm/migrations';

export class Foundation extends Migration {
  override name = '0001-foundation';

  up() {
    this.addSql(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    this.addSql(`CREATE EXTENSION IF NOT EXISTS unaccent`);
    this.addSql(`
      CREATE TABLE users (
        id uuid PRIMARY KEY,
        email text NOT NULL,
        password_hash text NOT NULL,
        plan text NOT NULL DEFAULT 'free' CHECK (plan IN ('free', 'paid')),
        target_language text,
        native_language text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    this.addSql(`CREATE UNIQUE INDEX users_email_key ON users (lower(email))`);
    this.addSql(`
      CREATE TABLE sessions (
        id_hash text PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`);
    this.addSql(`CREATE INDEX sessions_user_idx ON sessions (user_id)`);
    this.addSql(`
      CREATE TABLE api_tokens (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        name text NOT NULL,
        scope text NOT NULL CHECK (scope IN ('read', 'write')),
        token_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz,
        revoked_at timestamptz,
        last_used_at timestamptz
      )`);
    this.addSql(`CREATE INDEX api_tokens_user_idx ON api_tokens (user_id, created_at)`);
    this.addSql(`
      CREATE TABLE wallets (
        user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        period_anchor timestamptz NOT NULL,
        period_start timestamptz NOT NULL,
        period_end timestamptz NOT NULL,
        balance integer NOT NULL CHECK (balance >= 0)
      )`);
    this.addSql(`
      CREATE TABLE ledger_entries (
        id bigserial PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        idempotency_key text NOT NULL,
        kind text NOT NULL,
        amount integer NOT NULL,
        balance_after integer NOT NULL CHECK (balance_after >= 0),
        provider_cost_usd numeric,
        shortfall integer NOT NULL DEFAULT 0,
        reason text NOT NULL,
        ref text,
        period_start timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (user_id, idempotency_key)
      )`);
    this.addSql(`CREATE INDEX ledger_entries_user_idx ON ledger_entries (user_id, id DESC)`);
    // Rate-limit windows live in the database so that several API processes share one count.
    this.addSql(`
      CREATE UNLOGGED TABLE rate_limit_windows (
        bucket text NOT NULL,
        window_start timestamptz NOT NULL,
        hits integer NOT NULL,
        PRIMARY KEY (bucket, window_start)
      )`);
  }
}
