import { DriverException, UniqueConstraintViolationException } from '@mikro-orm/core';
import { PostgreSqlPlatform } from '@mikro-orm/postgresql';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Em } from '../../../src/db/orm.ts';
import { affectedRows, allRows, firstRow, preparedStatement, sql } from '../../../src/db/sql.ts';

/** An EntityManager whose Kysely records what it is sent and answers with `answer`, or fails with `failure`. */
function recordingEm(answer: QueryResult<unknown> = { rows: [] }, failure?: Error) {
  const sent: CompiledQuery[] = [];
  const connection: DatabaseConnection = {
    async executeQuery(query) {
      sent.push(query);
      if (failure) throw failure;
      return answer as never;
    },
    streamQuery: () => {
      throw new Error('not used');
    },
  };
  const driver: Driver = {
    init: async () => {},
    acquireConnection: async () => connection,
    beginTransaction: async () => {},
    commitTransaction: async () => {},
    rollbackTransaction: async () => {},
    releaseConnection: async () => {},
    destroy: async () => {},
  };
  const kysely = new Kysely({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => driver,
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
  const converter = new PostgreSqlPlatform().getExceptionConverter();
  const em = { getKysely: () => kysely, getDriver: () => ({ convertException: (e: Error) => converter.convertException(e) }) } as unknown as Em;
  return { em, sent };
}

describe('statements', () => {
  it('sends every value as a parameter and keeps the SQL text free of them', async () => {
    const { em, sent } = recordingEm();
    const text = `it's "here"? \\ ; DROP TABLE users; --`;
    await allRows(em, sql`SELECT id FROM cards WHERE text = ${text} AND note = '?' AND user_id = ${'u1'}`);
    expect(sent[0]!.sql).toBe(`SELECT id FROM cards WHERE text = $1 AND note = '?' AND user_id = $2`);
    expect(sent[0]!.parameters).toEqual([text, 'u1']);
  });

  it('binds an array as one parameter, and sql.join as a list of them', async () => {
    const { em, sent } = recordingEm();
    await allRows(em, sql`SELECT id FROM cards WHERE id = ANY(${['a', 'b', 'c']}::uuid[])`);
    await allRows(em, sql`SELECT id FROM cards WHERE id IN (${sql.join(['a', 'b'])})`);
    expect(sent.map((q) => [q.sql, q.parameters])).toEqual([
      [`SELECT id FROM cards WHERE id = ANY($1::uuid[])`, [['a', 'b', 'c']]],
      [`SELECT id FROM cards WHERE id IN ($1, $2)`, ['a', 'b']],
    ]);
  });

  it('places fragments as SQL and numbers the parameters across them', async () => {
    const { em, sent } = recordingEm();
    const columns = sql`c.id, c.text`;
    const condition = (query: string) => sql`c.text LIKE ${query}`;
    await allRows(em, sql`SELECT ${columns} FROM cards c WHERE c.user_id = ${'u1'} AND ${condition('%x%')} LIMIT ${51}`);
    expect(sent[0]!.sql).toBe(`SELECT c.id, c.text FROM cards c WHERE c.user_id = $1 AND c.text LIKE $2 LIMIT $3`);
    expect(sent[0]!.parameters).toEqual(['u1', '%x%', 51]);
  });

  it('answers rows, the first row, and the rows a write affected', async () => {
    expect(await allRows(recordingEm({ rows: [{ a: 1 }, { a: 2 }] }).em, sql<{ a: number }>`SELECT a FROM t`)).toEqual([{ a: 1 }, { a: 2 }]);
    expect(await firstRow(recordingEm({ rows: [{ a: 1 }, { a: 2 }] }).em, sql<{ a: number }>`SELECT a FROM t`)).toEqual({ a: 1 });
    expect(await firstRow(recordingEm({ rows: [] }).em, sql`SELECT a FROM t`)).toBeUndefined();
    expect(await affectedRows(recordingEm({ rows: [], numAffectedRows: 3n }).em, sql`DELETE FROM t`)).toBe(3);
    expect(await affectedRows(recordingEm({ rows: [{ n: 1 }, { n: 1 }] }).em, sql`SELECT 1 AS n FROM t`)).toBe(2);
  });

  it('fails with the DriverException MikroORM makes of the error, as em.execute does', async () => {
    const pgError = Object.assign(new Error('duplicate key value violates unique constraint "users_email_key"'), {
      code: '23505',
      detail: 'Key (email)=(a@b.c) already exists.',
    });
    const failed = await allRows(recordingEm(undefined, pgError).em, sql`INSERT INTO users (email) VALUES (${'a@b.c'})`).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(UniqueConstraintViolationException);
    expect(failed).toMatchObject({ code: '23505' });
    const lost = await allRows(recordingEm(undefined, new Error('Connection terminated unexpectedly')).em, sql`SELECT 1`).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(DriverException);
    expect((lost as Error).message).toBe('Connection terminated unexpectedly');
  });
});

describe('prepared statements', () => {
  it('run their one text under their name', async () => {
    const { em, sent } = recordingEm();
    const lookup = preparedStatement('unit_lookup', (id: string) => sql<{ text: string }>`SELECT text FROM cards WHERE id = ${id}`);
    await allRows(em, lookup('a'));
    await allRows(em, lookup('b'));
    expect(sent.map((q) => [q.sql, q.parameters])).toEqual([
      [`SELECT text FROM cards WHERE id = $1`, ['a']],
      [`SELECT text FROM cards WHERE id = $1`, ['b']],
    ]);
  });

  it('refuse a second text under one name', async () => {
    const { em } = recordingEm();
    const varying = preparedStatement('unit_varying', (ids: string[]) => sql`SELECT text FROM cards WHERE id IN (${sql.join(ids)})`);
    await allRows(em, varying(['a']));
    await expect(allRows(em, varying(['a', 'b']))).rejects.toThrow(/must have one text/);
  });

  it.each([
    ['SELECT *', sql`SELECT * FROM card_schedules WHERE card_id = ${'c'} FOR UPDATE`],
    [`a table's * among other columns`, sql`SELECT c.*, s.due FROM cards c JOIN card_schedules s ON s.card_id = c.id WHERE c.id = ${'c'}`],
    ['RETURNING *', sql`UPDATE cards SET text = ${'t'} WHERE id = ${'c'} RETURNING *`],
  ])('refuse %s: a migration that adds a column would break them', async (name, query) => {
    const { em, sent } = recordingEm();
    const star = preparedStatement(`unit_star_${name}`, () => query);
    await expect(allRows(em, star())).rejects.toThrow(/must name its columns/);
    expect(sent).toEqual([]);
  });

  it('allow count(*)', async () => {
    const counted = preparedStatement('unit_count', (userId: string) => sql`SELECT count(*) AS n FROM cards WHERE user_id = ${userId}`);
    await expect(allRows(recordingEm().em, counted('u'))).resolves.toEqual([]);
  });

  it('refuse a name declared twice, and two names for one text', async () => {
    preparedStatement('unit_twice', () => sql`SELECT 1 AS one`);
    expect(() => preparedStatement('unit_twice', () => sql`SELECT 2 AS two`)).toThrow(/declared twice/);
    const first = preparedStatement('unit_same_text_1', () => sql`SELECT 3 AS three`);
    const second = preparedStatement('unit_same_text_2', () => sql`SELECT 3 AS three`);
    const { em } = recordingEm();
    await allRows(em, first());
    await expect(allRows(em, second())).rejects.toThrow(/have the same text/);
  });
});
