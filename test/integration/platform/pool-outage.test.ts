import { afterAll, expect, it } from 'vitest';
import { createOrm } from '../../../src/db/orm.ts';
import { startPrivateDatabase, type PrivateDatabase } from '../../support/private-database.ts';

let db: PrivateDatabase | undefined;
afterAll(async () => db?.close());

it('a transaction caught by a database outage gives its connection back: the pool keeps no dead client and still closes', async () => {
  db = await startPrivateDatabase();
  const orm = await createOrm(db.url);
  const pool = (await orm.driver.getConnection().getNativeClient()) as { totalCount: number };
  let release = () => {};
  let inside = () => {};
  const entered = new Promise<void>((resolve) => {
    inside = resolve;
  });
  const transaction = orm.em.fork().transactional(async (tx) => {
    await tx.execute('SELECT 1');
    inside();
    await new Promise<void>((resolve) => {
      release = resolve;
    });
  });
  await entered;
  await db.stop();
  release();
  await expect(transaction).rejects.toThrow(/not queryable|terminated/);
  expect(pool.totalCount).toBe(0); // before the fix, the dead client stayed checked out

  await db.start();
  await expect(orm.em.fork().execute('SELECT 1 AS one')).resolves.toEqual([{ one: 1 }]);
  const closed = await Promise.race([orm.close().then(() => 'closed'), new Promise((resolve) => setTimeout(resolve, 10_000, 'still waiting'))]);
  expect(closed).toBe('closed');
}, 60_000);
