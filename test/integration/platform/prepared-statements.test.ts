import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createOrm, type Orm } from '../../../src/db/orm.ts';
import { allRows, firstRow, preparedStatement, run, sql } from '../../../src/db/sql.ts';
import { librarySearchCondition } from '../../../src/features/library/service.ts';

/** One pooled connection, so that every statement here runs where the previous ones were prepared. */
let orm: Orm;
beforeAll(async () => {
  orm = await createOrm(inject('infra').databaseUrl, { poolMax: 1 });
});
afterAll(async () => orm?.close());

const prepared = async () =>
  allRows<{ name: string; statement: string; generic_plans: number }>(
    orm.em.fork(),
    sql`SELECT name, statement, generic_plans::int AS generic_plans FROM pg_prepared_statements`,
  );

const nextOf = preparedStatement(
  'test_next',
  (i: number, label: string) => sql<{ next: number; label: string }>`SELECT ${i}::int + 1 AS next, ${label}::text AS label`,
);

it('a declared statement runs by name: parsed once per connection, then on a reused generic plan', async () => {
  const em = orm.em.fork();
  for (let i = 0; i < 8; i++) expect(await firstRow(em, nextOf(i, `run ${i}`))).toEqual({ next: i + 1, label: `run ${i}` });
  expect((await prepared()).filter((p) => p.name === 'test_next')).toEqual([
    { name: 'test_next', statement: 'SELECT $1::int + 1 AS next, $2::text AS label', generic_plans: 3 },
  ]);
});

it('every other statement runs unnamed, planned for its values: a library search is never prepared', async () => {
  const em = orm.em.fork();
  const userId = '00000000-0000-4000-8000-000000000000';
  for (const word of ['rare', 'common', 'rare', 'common', 'rare', 'common']) {
    await allRows(em, sql`SELECT id FROM cards c WHERE c.user_id = ${userId} AND ${librarySearchCondition(word)} ORDER BY c.created_at DESC LIMIT 51`);
  }
  expect((await prepared()).map((p) => p.statement).filter((s) => s.includes('library_contains_pattern'))).toEqual([]);
  expect((await prepared()).map((p) => p.name)).toEqual(expect.arrayContaining(['test_next']));
});

it('a migration that adds a column does not break what live connections prepared: prepared statements name their columns', async () => {
  const table = `prepared_columns_${process.pid}`;
  const em = orm.em.fork();
  await run(em, sql`CREATE TABLE ${sql.table(table)} (id int PRIMARY KEY, a text)`);
  try {
    const byId = preparedStatement('test_by_id', (id: number) => sql<{ id: number; a: string }>`SELECT id, a FROM ${sql.table(table)} WHERE id = ${id}`);
    await run(em, sql`INSERT INTO ${sql.table(table)} (id, a) VALUES (${1}, ${'x'})`);
    for (let i = 0; i < 7; i++) expect(await firstRow(em, byId(1))).toEqual({ id: 1, a: 'x' });
    await run(em, sql`ALTER TABLE ${sql.table(table)} ADD COLUMN b text`);
    expect(await firstRow(em, byId(1))).toEqual({ id: 1, a: 'x' });
    // An unprepared SELECT * sees the new column at once.
    expect(await firstRow(em, sql`SELECT * FROM ${sql.table(table)} WHERE id = ${1}`)).toEqual({ id: 1, a: 'x', b: null });
  } finally {
    await run(em, sql`DROP TABLE ${sql.table(table)}`);
  }
});

it('the statements the service prepares keep their values and their names across connections', async () => {
  // A second ORM: its connection prepares the same names afresh.
  const other = await createOrm(inject('infra').databaseUrl, { poolMax: 1 });
  try {
    for (const em of [orm.em.fork(), other.em.fork()]) {
      expect(await firstRow(em, nextOf(41, `it's ?`))).toEqual({ next: 42, label: `it's ?` });
    }
  } finally {
    await other.close();
  }
});
