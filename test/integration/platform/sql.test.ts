import { DriverException, UniqueConstraintViolationException } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createOrm, type Orm } from '../../../src/db/orm.ts';
import { affectedRows, allRows, firstRow, run, sql } from '../../../src/db/sql.ts';
import { isDatabaseUnavailable } from '../../../src/domain/database-errors.ts';
import { loggableError } from '../../../src/http/plugins/problems.ts';
import { startPrivateDatabase, type PrivateDatabase } from '../../support/private-database.ts';

/** Statements through src/db/sql.ts against a real PostgreSQL: what values mean, what errors look like, transactions. */
let orm: Orm;
beforeAll(async () => {
  orm = await createOrm(inject('infra').databaseUrl, { poolMax: 2 });
});
afterAll(async () => orm?.close());

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('it did not fail');
    },
    (error: unknown) => error as Error,
  );

describe('values', () => {
  it('keep their meaning when bound: quotes, backslashes, question marks, unicode, JSON, dates, null, booleans, numbers, bytes', async () => {
    const text = `it's "here"? \\ \\' ?? $1 ; DROP TABLE users; --`;
    const unicode = 'Crème brûlée — 東京 🍮 \u00a0';
    const at = new Date('2026-11-26T05:00:00.123Z');
    const row = await firstRow<Record<string, unknown>>(
      orm.em.fork(),
      sql`
      SELECT ${text}::text AS text, ${unicode}::text AS unicode, '?' AS literal,
             (${JSON.stringify({ k: 'v\u00e9', q: "it's" })}::jsonb) ->> 'q' AS json,
             ${null}::text IS NULL AS missing, ${at}::timestamptz = '2026-11-26T05:00:00.123Z'::timestamptz AS same_instant,
             ${true}::boolean AS yes, ${2.5}::float8 * 2 AS product, ${Buffer.from([0, 1, 255])}::bytea AS bytes`,
    );
    expect(row).toEqual({
      text,
      unicode,
      literal: '?',
      json: "it's",
      missing: true,
      same_instant: true,
      yes: true,
      product: 5,
      bytes: Buffer.from([0, 1, 255]),
    });
  });

  it('bind an array as one parameter, whatever its length', async () => {
    const em = orm.em.fork();
    const among = (ids: number[]) => allRows<{ n: number }>(em, sql`SELECT n FROM generate_series(1, 5) AS n WHERE n = ANY(${ids}::int[]) ORDER BY n`);
    expect(await among([2, 4])).toEqual([{ n: 2 }, { n: 4 }]);
    expect(await among([])).toEqual([]);
    const texts = [`a'b`, 'c,d', '{e}', 'f"g', 'NULL'];
    expect(await firstRow(em, sql`SELECT ${texts}::text[] AS texts`)).toEqual({ texts });
    expect(await allRows(em, sql`SELECT n FROM generate_series(1, 5) AS n WHERE n IN (${sql.join([1, 3])}) ORDER BY n`)).toEqual([{ n: 1 }, { n: 3 }]);
  });
});

describe('errors', () => {
  const table = `sql_errors_${process.pid}`;
  beforeAll(async () => {
    await orm.em.fork().execute(`CREATE TABLE ${table} (k text PRIMARY KEY)`);
  });
  afterAll(async () => {
    await orm.em.fork().execute(`DROP TABLE ${table}`);
  });

  /** What em.execute and the helpers each fail with, for the same statement. */
  const bothWays = async (before: string, value: string, after = '') => ({
    ours: await failure(run(orm.em.fork(), sql`${sql.raw(before)} ${value} ${sql.raw(after)}`)),
    mikroOrm: await failure(orm.em.fork().execute(`${before} ? ${after}`, [value])),
  });
  const shape = (error: Error) => ({ type: error.constructor, name: error.name, message: error.message, code: (error as { code?: unknown }).code });

  it('a unique violation is the UniqueConstraintViolationException em.execute throws', async () => {
    await run(orm.em.fork(), sql`INSERT INTO ${sql.table(table)} (k) VALUES (${'taken'})`);
    const { ours, mikroOrm } = await bothWays(`INSERT INTO ${table} (k) VALUES (`, 'taken', ')');
    expect(ours).toBeInstanceOf(UniqueConstraintViolationException);
    expect(shape(ours)).toEqual(shape(mikroOrm));
    expect(shape(ours).code).toBe('23505');
  });

  it('an error that quotes a value is logged without it, as one from em.execute is', async () => {
    const secret = 'user text 5f1c';
    const { ours, mikroOrm } = await bothWays('SELECT 1 WHERE gen_random_uuid() =', secret);
    expect(shape(ours)).toEqual(shape(mikroOrm));
    expect(ours.message).toContain(secret); // PostgreSQL quotes it …
    const logged = JSON.stringify(loggableError(ours));
    expect(logged).not.toContain(secret); // … the log does not
    expect(loggableError(ours)).toMatchObject({ type: 'DriverException', code: '22P02' });
  });

  it('a connection that dies is an outage, as it is for em.execute', async () => {
    // Which of the two errors pg reports first (the server's 57P01, or the socket closing) is a race: either is an outage.
    const ours = await failure(run(orm.em.fork(), sql`SELECT pg_terminate_backend(pg_backend_pid())`));
    const mikroOrm = await failure(orm.em.fork().execute(`SELECT pg_terminate_backend(pg_backend_pid())`));
    for (const error of [ours, mikroOrm]) {
      expect(error).toBeInstanceOf(DriverException);
      expect(isDatabaseUnavailable(error), String(error)).toBe(true);
    }
  });
});

describe('transactions', () => {
  const table = `sql_tx_${process.pid}`;
  beforeAll(async () => {
    await orm.em.fork().execute(`CREATE TABLE ${table} (k text PRIMARY KEY)`);
  });
  afterAll(async () => {
    await orm.em.fork().execute(`DROP TABLE ${table}`);
  });
  const keys = async () => (await allRows<{ k: string }>(orm.em.fork(), sql`SELECT k FROM ${sql.table(table)} ORDER BY k`)).map((r) => r.k);

  it('run inside the transaction of the EntityManager they are given, and roll back with it', async () => {
    await expect(
      orm.em.fork().transactional(async (tx) => {
        expect(await affectedRows(tx, sql`INSERT INTO ${sql.table(table)} (k) VALUES (${'a'}), (${'b'})`)).toBe(2);
        expect(await allRows(tx, sql`SELECT k FROM ${sql.table(table)} ORDER BY k`)).toEqual([{ k: 'a' }, { k: 'b' }]);
        expect(await keys()).toEqual([]); // not committed: another connection sees nothing
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await keys()).toEqual([]);
    await orm.em.fork().transactional((tx) => run(tx, sql`INSERT INTO ${sql.table(table)} (k) VALUES (${'c'})`));
    expect(await keys()).toEqual(['c']);
  });

  it('whose connection is lost give the connection back: more such losses than the pool holds leave it usable', async () => {
    for (let i = 0; i < 3; i++) {
      const lost = await failure(orm.em.fork().transactional((tx) => run(tx, sql`SELECT pg_terminate_backend(pg_backend_pid())`)));
      expect(isDatabaseUnavailable(lost), String(lost)).toBe(true);
    }
    const answer = firstRow(orm.em.fork(), sql`SELECT 1 AS one`);
    const hung = new Promise((resolve) => setTimeout(() => resolve('no connection within 5 s'), 5_000));
    expect(await Promise.race([answer, hung])).toEqual({ one: 1 });
  });
});

describe('a database that goes away', () => {
  let db: PrivateDatabase | undefined;
  afterAll(async () => db?.close());

  it('fails a transaction in flight and keeps no dead client; a refused connection is the error em.execute gives; all is well once it is back', async () => {
    db = await startPrivateDatabase();
    const away = await createOrm(db.url);
    try {
      const pool = (await away.driver.getConnection().getNativeClient()) as { totalCount: number };
      let release = () => {};
      let inside = () => {};
      const entered = new Promise<void>((resolve) => {
        inside = resolve;
      });
      const transaction = away.em.fork().transactional(async (tx) => {
        await run(tx, sql`SELECT ${1}::int`);
        inside();
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        await run(tx, sql`SELECT ${2}::int`);
      });
      await entered;
      await db.stop();
      release();
      const lost = await failure(transaction);
      expect(isDatabaseUnavailable(lost), String(lost)).toBe(true);
      expect(pool.totalCount).toBe(0);

      const refused = await failure(run(away.em.fork(), sql`SELECT ${1}::int`));
      const refusedToo = await failure(away.em.fork().execute('SELECT ?::int', [1]));
      expect(refused).toBeInstanceOf(DriverException);
      expect({ name: refused.name, code: (refused as { code?: unknown }).code }).toEqual({
        name: refusedToo.name,
        code: (refusedToo as { code?: unknown }).code,
      });
      expect(isDatabaseUnavailable(refused), String(refused)).toBe(true);

      await db.start();
      expect(await firstRow(away.em.fork(), sql`SELECT ${1}::int AS one`)).toEqual({ one: 1 });
    } finally {
      const closed = await Promise.race([away.close().then(() => 'closed'), new Promise((resolve) => setTimeout(resolve, 10_000, 'still waiting'))]);
      expect(closed).toBe('closed');
    }
  }, 60_000);
});
