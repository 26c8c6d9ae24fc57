import { MikroORM, type EntityManager, type PostgreSqlDriver } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { migrations } from './migrations/index.ts';
import { PostgreSqlDriverForOutages } from './postgresql-driver.ts';
import { sql, run } from './sql.ts';

export type Orm = MikroORM;
export type Em = EntityManager;

export async function createOrm(databaseUrl: string, options: { poolMax?: number } = {}): Promise<Orm> {
  return MikroORM.init<PostgreSqlDriver>({
    clientUrl: databaseUrl,
    driver: PostgreSqlDriverForOutages,
    // No entities: the ORM is the pool, the migrator and the unit of work (transactions); each
    // feature's SQL lives in its own folder, against the schema the migrations define.
    entities: [],
    discovery: { warnWhenNoEntities: false },
    extensions: [Migrator],
    migrations: {
      migrationsList: migrations.map((m) => ({ name: new m(null as never, null as never).name, class: m })),
      transactional: true,
      allOrNothing: true,
      silent: true,
      snapshot: false,
    },
    pool: { min: 0, max: options.poolMax ?? 10 },
    debug: false,
    allowGlobalContext: false,
    forceUtcTimezone: true,
  });
}

/**
 * Applies pending migrations. An advisory lock makes this safe when several API and worker
 * processes start at once against the same database.
 */
export async function migrate(orm: Orm): Promise<void> {
  const em = orm.em.fork();
  await em.transactional(async (tx) => {
    await run(tx, sql`SELECT pg_advisory_xact_lock(745001)`);
    await orm.migrator.up();
  });
}
