/**
 * Hand-written SQL, with every value an explicit bound parameter.
 *
 * Statements are Kysely's `sql` tagged template: each `${value}` is sent to PostgreSQL as a
 * parameter (`$1`, `$2`, …), never quoted into the text, so a value cannot change what the
 * statement means and its text stays the same whatever the values are.
 *
 * ```ts
 * const card = await firstRow(em, sql<CardRow>`SELECT ${CARD_COLUMNS} FROM cards c WHERE c.id = ${cardId}`);
 * const deleted = await affectedRows(tx, sql`DELETE FROM sessions WHERE user_id = ${userId}`);
 * ```
 *
 * - An array is one parameter (a PostgreSQL array): `WHERE id = ANY(${ids}::uuid[])`. For a list
 *   of separate parameters, `sql.join(values)`.
 * - SQL text that several statements share (a column list) is a fragment, `sql\`c.id, c.text\``,
 *   placed with `${CARD_COLUMNS}`: a fragment is SQL, anything else is a value. `sql.raw` takes
 *   text as SQL without checking it, so it is only for constant text written in the code;
 *   `sql.ref` and `sql.table` quote an identifier.
 * - `allRows`, `firstRow`, `affectedRows` and `run` run a statement on the EntityManager's
 *   connection: inside `em.transactional`, in that transaction. They fail with the errors
 *   `em.execute` fails with (MikroORM's `DriverException`s, e.g.
 *   `UniqueConstraintViolationException`, carrying PostgreSQL's `code`), so isDatabaseUnavailable
 *   and the problem handlers see no difference.
 *
 * A statement runs unnamed: PostgreSQL parses and plans it with its values each time. That is
 * right for most statements, and required for one whose best plan depends on its values: a
 * library search for a word on 3 cards wants the trigram index, for a word on 30,000 the newest
 * cards first. A plan made once and reused would serve one of them badly from then on.
 *
 * **Prepared statements** are for the statements of the hot paths, where planning costs as much as
 * running: those every request runs (the token lookup, the rate-limit bucket's upsert) and those of
 * the busiest operations (a capture, a page translation, a paid call's hold and charge, a Replay
 * session and its answers, a page of the library). Declared once with
 * `preparedStatement(name, build)`, they run by name, parsed once per pooled connection, and
 * PostgreSQL reuses a generic plan once it finds one no dearer than planning for the values
 * (after five runs). Measure before adding one: a statement that runs
 * rarely gains nothing and holds memory on every connection. Their rules, checked when a statement
 * first runs:
 * - one text: `build` must produce the same SQL whatever its arguments (no optional clauses, no
 *   `sql.join` over a list of varying length); a second text under one name throws.
 * - named columns, never `SELECT *` or `RETURNING *`: a prepared statement's result columns are
 *   fixed, and once a migration adds a column PostgreSQL refuses to run it again ("cached plan must
 *   not change result type") on every connection that prepared it, so a rolling deploy would
 *   break the processes still running.
 * - not for statements planned per value (above): just leave them unprepared.
 */
import { sql, type QueryResult, type RawBuilder } from 'kysely';
import pg from 'pg';
import type { Em } from './orm.ts';

export { sql };

/** A `sql` template: a statement, or a fragment to place in one. */
export type Sql<Row = unknown> = RawBuilder<Row>;

/** A statement to run: a `sql` template, or a declared prepared statement with its arguments. */
export type Statement<Row> = Sql<Row> | PreparedQuery<Row>;

export interface PreparedQuery<Row> {
  readonly statementName: string;
  readonly query: Sql<Row>;
}

/** The rows a statement returns. */
export async function allRows<Row>(em: Em, statement: Statement<Row>): Promise<Row[]> {
  return (await execute(em, statement)).rows;
}

/** The first row a statement returns, or undefined. */
export async function firstRow<Row>(em: Em, statement: Statement<Row>): Promise<Row | undefined> {
  return (await execute(em, statement)).rows[0];
}

/** How many rows a statement inserted, updated or deleted (for any other statement, how many it returned). */
export async function affectedRows(em: Em, statement: Statement<unknown>): Promise<number> {
  const result = await execute(em, statement);
  return Number(result.numAffectedRows ?? result.rows.length);
}

/** Runs a statement for its effect. */
export async function run(em: Em, statement: Statement<unknown>): Promise<void> {
  await execute(em, statement);
}

async function execute<Row>(em: Em, statement: Statement<Row>): Promise<QueryResult<Row>> {
  const kysely = em.getKysely();
  const prepared = 'statementName' in statement;
  const compiled = (prepared ? statement.query : statement).compile(kysely);
  if (prepared) nameText(statement.statementName, compiled.sql);
  try {
    return await kysely.executeQuery(compiled);
  } catch (error) {
    // What em.execute does (MikroORM's driver, `rethrow`): PostgreSQL's errors become DriverExceptions.
    throw em.getDriver().convertException(error as Error);
  }
}

/**
 * Declares a prepared statement: `build` turns its arguments into the statement, which then runs
 * under `name` (see the rules above).
 *
 * ```ts
 * const tokenLookup = preparedStatement('token_lookup', (tokenHash: string) =>
 *   sql<TokenRow>`SELECT user_id, scope FROM api_tokens WHERE token_hash = ${tokenHash}`);
 * const token = await firstRow(em, tokenLookup(hash));
 * ```
 */
export function preparedStatement<Args extends unknown[], Row>(name: string, build: (...args: Args) => Sql<Row>): (...args: Args) => PreparedQuery<Row> {
  if (declaredNames.has(name)) throw new Error(`A prepared statement named ${name} is declared twice.`);
  declaredNames.add(name);
  return (...args) => ({ statementName: name, query: build(...args) });
}

const declaredNames = new Set<string>();
const textByName = new Map<string, string>();
const nameByText = new Map<string, string>();

/** `SELECT *` or `RETURNING *`, also with a table's `c.*` (not `count(*)`). */
const STAR_COLUMNS = /\b(?:SELECT|RETURNING)\s+(?:DISTINCT\s+)?(?:\w+\.)?\*|,\s*(?:\w+\.)?\*\s*(?:,|FROM\b)/i;

function nameText(name: string, text: string): void {
  const known = textByName.get(name);
  if (known === text) return;
  if (known !== undefined) throw new Error(`The prepared statement ${name} must have one text; it also ran as:\n${text}`);
  if (STAR_COLUMNS.test(text))
    throw new Error(`The prepared statement ${name} must name its columns, not select *: a migration that adds a column would break it.`);
  if (nameByText.has(text)) throw new Error(`The prepared statements ${nameByText.get(text)} and ${name} have the same text.`);
  textByName.set(name, text);
  nameByText.set(text, name);
}

/**
 * The pool's client (the pool's `Client` option, src/db/postgresql-driver.ts): the text of a
 * declared prepared statement runs as `{ name, text, values }`, which pg prepares on the
 * connection the first time and runs by name afterwards; every other statement runs as given.
 */
export class NamedStatementClient extends pg.Client {
  override query(...args: unknown[]): never {
    const [text, values, ...rest] = args;
    const name = typeof text === 'string' ? nameByText.get(text) : undefined;
    if (name !== undefined) return (super.query as (...a: unknown[]) => never)({ name, text, values }, ...rest);
    return (super.query as (...a: unknown[]) => never)(...args);
  }
}
