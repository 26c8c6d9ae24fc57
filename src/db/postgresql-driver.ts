import { PostgreSqlConnection, PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { Configuration, Transaction } from '@mikro-orm/core';
import { CompiledQuery, type DatabaseConnection, type Dialect, type Driver, type TransactionSettings } from 'kysely';
import { isDatabaseUnavailable } from '../domain/database-errors.ts';
import { boundStatement, PreparingClient } from './prepared-statements.ts';

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

type ExecuteArgs = Parameters<PostgreSqlConnection['execute']>;
type QueryExecutor = { executeQuery(query: CompiledQuery, abort?: unknown): Promise<{ rows: unknown[] }> };

/** The connection: dead clients go back to the pool, and raw SQL runs bound (prepared-statements.ts). */
class OurPostgreSqlConnection extends PostgreSqlConnection {
  override mapOptions(overrides: Parameters<PostgreSqlConnection['mapOptions']>[0]) {
    return { ...super.mapOptions(overrides), Client: PreparingClient };
  }

  override async execute<T>(query: ExecuteArgs[0], params: ExecuteArgs[1] = [], method: ExecuteArgs[2] = 'all', ctx?: Transaction, loggerContext?: ExecuteArgs[4]): Promise<T> {
    const sql = typeof query === 'string' && Array.isArray(params) ? this.config.get('onQuery')(query, params) : null;
    const bound = sql === null ? null : boundStatement(sql, params as unknown[]);
    if (sql === null || bound === null) return super.execute(query, params, method, ctx, loggerContext) as Promise<T>;
    await this.ensureConnection();
    // What MikroORM's execute does with its logger context: cancellation options go to Kysely, the rest to the query log.
    const { signal, inflightQueryAbortStrategy, ...logContext } = (loggerContext ?? {}) as Record<string, unknown>;
    const abort = signal == null && inflightQueryAbortStrategy == null ? undefined : { signal, inflightQueryAbortStrategy };
    const executor = (ctx ?? this.getClient()) as unknown as QueryExecutor;
    return this.executeQuery<T>(sql, async () => {
      const result = await executor.executeQuery(CompiledQuery.raw(bound, params as unknown[]), abort);
      return this.transformRawResult(result, method);
    }, { query: sql, params: params as unknown[], ...logContext });
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

/** MikroORM's PostgreSQL driver, on a connection that never leaks a pooled client to an outage. */
export class PostgreSqlDriverForOutages extends PostgreSqlDriver {
  constructor(config: Configuration) {
    super(config);
    (this as unknown as { connection: PostgreSqlConnection }).connection = new OurPostgreSqlConnection(this.config);
  }
}
