import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createOrm, type Orm } from '../../../src/db/orm.ts';

let orm: Orm;
beforeAll(async () => { orm = await createOrm(inject('infra').databaseUrl, { poolMax: 1 }); });
afterAll(async () => orm?.close());

const prepared = (tx: Orm['em']) =>
  tx.execute<{ statement: string; generic_plans: number }[]>(`SELECT statement, generic_plans::int AS generic_plans FROM pg_prepared_statements`);

it('raw SQL with parameters runs as a prepared statement: parsed once per connection, then on a reused generic plan', async () => {
  const statement = `SELECT ?::int + 1 AS next, ?::text AS label /* prepared-statements.test */`;
  await orm.em.fork().transactional(async (tx) => {
    for (let i = 0; i < 8; i++) expect(await tx.execute(statement, [i, `run ${i}`])).toEqual([{ next: i + 1, label: `run ${i}` }]);
    const ours = (await prepared(tx)).filter((row) => row.statement.includes('prepared-statements.test */'));
    expect(ours).toEqual([{ statement: `SELECT $1::int + 1 AS next, $2::text AS label /* prepared-statements.test */`, generic_plans: 3 }]);
  });
});

it('values keep their meaning when bound: quotes, JSON, NULL, dates and booleans', async () => {
  const at = new Date('2026-11-26T05:00:00.123Z');
  const [row] = await orm.em.fork().execute<Record<string, unknown>[]>(
    `SELECT ?::text AS quoted, (?::jsonb)->>'k' AS json, ?::text IS NULL AS missing, ?::timestamptz = '2026-11-26T05:00:00.123Z'::timestamptz AS same_instant, ?::boolean AS yes`,
    [`it's "here"; DROP TABLE users; --`, JSON.stringify({ k: 'v\u00e9' }), null, at, true],
  );
  expect(row).toEqual({ quoted: `it's "here"; DROP TABLE users; --`, json: 'v\u00e9', missing: true, same_instant: true, yes: true });
});

it('statements binding would change keep MikroORM quoting: an array parameter still expands into a list', async () => {
  const rows = await orm.em.fork().execute<{ n: number }[]>(`SELECT n FROM generate_series(1, 5) AS n WHERE n IN (?) ORDER BY n`, [[2, 4]]);
  expect(rows).toEqual([{ n: 2 }, { n: 4 }]);
});

it('a migration that adds a column does not break what live connections prepared: SELECT * is never prepared', async () => {
  const table = `prepared_star_${process.pid}`;
  const em = orm.em.fork();
  await em.execute(`CREATE TABLE ${table} (id int PRIMARY KEY, a text)`);
  try {
    await em.execute(`INSERT INTO ${table} (id, a) VALUES (?, ?)`, [1, 'x']);
    for (let i = 0; i < 2; i++) await em.execute(`SELECT * FROM ${table} WHERE id = ?`, [1]);
    await em.execute(`ALTER TABLE ${table} ADD COLUMN b text`);
    expect(await em.execute(`SELECT * FROM ${table} WHERE id = ?`, [1])).toEqual([{ id: 1, a: 'x', b: null }]);
  } finally {
    await em.execute(`DROP TABLE ${table}`);
  }
});
