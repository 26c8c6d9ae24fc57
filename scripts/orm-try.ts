import { createOrm, migrate } from '../src/db/orm.ts';
import { startEmbeddedPostgres } from '../src/platform/embedded-postgres.ts';
const db = await startEmbeddedPostgres({ dataDir: '/tmp/orm-try' });
const orm = await createOrm(db.url);
await migrate(orm); await migrate(orm);
const em = orm.em.fork();
console.log(await em.execute('select count(*) from users'));
await orm.close(); await db.stop();
