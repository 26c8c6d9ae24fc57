import { EntityManagerType, type Configuration } from '@mikro-orm/core';
import { AbstractSqlDriver, EntityManager, MikroORM, PostgreSqlConnection, PostgreSqlPlatform } from '@mikro-orm/postgresql';
import type { DatabaseConnection, Dialect, Driver, TransactionSettings } from 'kysely';
import { isDatabaseUnavailable } from '../domain/database-errors.ts';
import { NamedStatementClient } from './sql.ts';

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
  constructor(inner: Driver) {
    this.inner = inner;
  }
  init() {
    return this.inner.init();
  }
  acquireConnection() {
    return this.inner.acquireConnection();
  }
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    return this.inner.beginTransaction(connection, settings);
  }
  commitTransaction(connection: DatabaseConnection) {
    return this.inner.commitTransaction(connection);
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    try {
      await this.inner.rollbackTransaction(connection);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
    }
  }
  savepoint(...args: Parameters<NonNullable<Driver['savepoint']>>) {
    return this.inner.savepoint!(...args);
  }
  rollbackToSavepoint(...args: Parameters<NonNullable<Driver['rollbackToSavepoint']>>) {
    return this.inner.rollbackToSavepoint!(...args);
  }
  releaseSavepoint(...args: Parameters<NonNullable<Driver['releaseSavepoint']>>) {
    return this.inner.releaseSavepoint!(...args);
  }
  releaseConnection(connection: DatabaseConnection) {
    return this.inner.releaseConnection(connection);
  }
  destroy() {
    return this.inner.destroy();
  }
}

/**
 * MikroORM's PostgreSQL connection (its pool, pool error handling and type parsers), with two
 * changes: the pool's clients run declared prepared statements by name (src/db/sql.ts), and
 * Kysely's driver gives dead connections back.
 */
class OurPostgreSqlConnection extends PostgreSqlConnection {
  override mapOptions(overrides: Parameters<PostgreSqlConnection['mapOptions']>[0]) {
    return { ...super.mapOptions(overrides), Client: NamedStatementClient };
  }

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

/**
 * MikroORM's PostgreSQL driver on our connection class, passed to AbstractSqlDriver's constructor
 * the way PostgreSqlDriver passes its own (it has no other way to choose one).
 */
export class PostgreSqlDriverForOutages extends AbstractSqlDriver<PostgreSqlConnection, PostgreSqlPlatform> {
  declare [EntityManagerType]: EntityManager<this>;

  constructor(config: Configuration) {
    super(config, new PostgreSqlPlatform(), OurPostgreSqlConnection, ['kysely', 'pg']);
  }

  override createEntityManager(useContext?: boolean): this[typeof EntityManagerType] {
    const EntityManagerClass = this.config.get('entityManager', EntityManager);
    return new EntityManagerClass(this.config, this, this.metadata, useContext);
  }

  override getORMClass(): typeof MikroORM {
    return MikroORM;
  }
}
