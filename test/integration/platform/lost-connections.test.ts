import { afterAll, beforeAll, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createOrm, type Orm } from '../../../src/db/orm.ts';
import { isDatabaseUnavailable } from '../../../src/domain/database-errors.ts';

/**
 * A transaction whose connection dies (PostgreSQL restarted, the backend terminated) fails, and its
 * ROLLBACK fails too. Kysely (0.29.6, under MikroORM) gives a transaction's connection back to the
 * pool only after a successful ROLLBACK, so every database restart with transactions in flight
 * would leak connections, until the pool was empty and every query of the process waited forever
 * (an API that hangs, a relay that stops). Our driver counts a rollback that failed for a lost
 * connection as done (ReleasingDeadConnectionsDriver, src/db/postgresql-driver.ts): that is what
 * this test covers.
 */
let orm: Orm;
const POOL = 2;
beforeAll(async () => {
  orm = await createOrm(inject('infra').databaseUrl, { poolMax: POOL });
});
afterAll(async () => {
  await orm?.close();
});

it('a transaction that loses its connection gives the connection back: more such losses than the pool holds leave it usable', async () => {
  for (let i = 0; i < POOL + 1; i++) {
    const lost = await orm.em
      .fork()
      .transactional(async (tx) => {
        await tx.execute(`SELECT pg_terminate_backend(pg_backend_pid())`);
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(isDatabaseUnavailable(lost), String(lost)).toBe(true);
  }
  const answer = orm.em.fork().execute<{ one: number }[]>(`SELECT 1 AS one`);
  const hung = new Promise((resolve) => setTimeout(() => resolve('no connection within 5 s'), 5_000));
  expect(await Promise.race([answer, hung])).toEqual([{ one: 1 }]);
});
