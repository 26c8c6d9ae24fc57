import { PostgreSqlConnection, PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { Configuration } from '@mikro-orm/core';
import type { DatabaseConnection, Dialect, Driver, TransactionSettings } from 'kysely';
import { isDatabaseUnavailable } from '../domain/database-errors.ts';

/**
 * Kysely releases a transaction's pooled connection only after its ROLLBACK succeeds. When
 * PostgreSQL goes away mid-transaction, the ROLLBACK fails too, so the dead client stays checked
 * out of the pool for good: every outage that catches a transaction costs the pool one
 * connection, and closing the pool waits for it forever. A rollback that failed because the
 * connection is gone has nothing left to undo (the server ended the transaction with the
 * session), so it counts as done and the client goes back to pg-pool, which discards it as no
 * longer queryable.
 */
class ReleasingDeadConnectionsDriver implements Driver {
  private readonly inner: Driver;
  constructor(inner: Driver) { this.inner = inner; }
  init() { return this.inner.init(); }
  acquireConnection() { return this.inner.acquireConnection(); }
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) { return this.inner.beginTransaction(connection, settings); }
  commitTransaction(connection: DatabaseConnection) { return this.inner.commitTransaction(connection); }
  async rollbackTransaction(connection: DatabaseConnection) {
    try {
      await this.inner.rollbackTransaction(connection);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
    }
  }
  savepoint(...args: Parameters<NonNullable<Driver['savepoint']>>) { return this.inner.savepoint!(...args); }
  rollbackToSavepoint(...args: Parameters<NonNullable<Driver['rollbackToSavepoint']>>) { return this.inner.rollbackToSavepoint!(...args); }
  releaseSavepoint(...args: Parameters<NonNullable<Driver['releaseSavepoint']>>) { return this.inner.releaseSavepoint!(...args); }
  releaseConnection(connection: DatabaseConnection) { return this.inner.releaseConnection(connection); }
  destroy() { return this.inner.destroy(); }
}

class ReleasingDeadConnections extends PostgreSqlConnection {
  override createKyselyDialect(overrides: Parameters<PostgreSqlConnection['createKyselyDialect']>[0]) {
    const dialect: Dialect = super.createKyselyDialect(overrides);
    return {
      createDriver: () => new ReleasingDeadConnectionsDriver(dialect.createDriver()),
      createQueryCompiler: () => dialect.createQueryCompiler(),
      createAdapter: () => dialect.createAdapter(),
      createIntrospector: (db) => dialect.createIntrospector(db),
      // The base declares its concrete PostgresDialect; a wrapper is only a Dialect, which is all Kysely uses.
    } satisfies Dialect as never;
  }
}

/** MikroORM's PostgreSQL driver, on a connection that never leaks a pooled client to an outage. */
export class PostgreSqlDriverForOutages extends PostgreSqlDriver {
  constructor(config: Configuration) {
    super(config);
    (this as unknown as { connection: PostgreSqlConnection }).connection = new ReleasingDeadConnections(this.config);
  }
}
