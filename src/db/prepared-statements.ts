import { isRaw } from '@mikro-orm/core';
import pg from 'pg';

/**
 * MikroORM runs raw SQL (`em.execute(sql, params)`) by quoting every parameter into the SQL text,
 * so PostgreSQL parses and plans each statement anew, and the text differs with every value. On
 * the API's hot paths planning cost more than executing (the bearer-token lookup: 237 µs planning,
 * 41 µs executing), and quoting a 4 kB JSON parameter in JavaScript cost 160 µs per page
 * translation. Bound instead, each statement text is parsed once per connection (a named
 * prepared statement), and after five executions PostgreSQL reuses a generic plan where its cost
 * is no worse.
 *
 * Statements keep MikroORM's path where binding would change their meaning: an array parameter
 * (MikroORM expands it into a list, `IN (?)`), a raw SQL fragment, `??` identifiers, an escaped
 * `\?`, or a placeholder count that does not match the parameters; and those marked
 * PLANNED_PER_VALUE or selecting `*` (STAR_COLUMNS).
 */
export function boundStatement(sql: string, params: readonly unknown[]): string | null {
  if (params.length === 0 || sql.includes('??') || sql.includes('\\?') || sql.includes(PLANNED_PER_VALUE) || STAR_COLUMNS.test(sql)) return null;
  if (params.some((param) => Array.isArray(param) || ArrayBuffer.isView(param) || isRaw(param))) return null;
  let index = 0;
  const numbered = sql.replace(/\?/g, () => `$${++index}`);
  return index === params.length ? numbered : null;
}

/**
 * `SELECT *` / `RETURNING *`: a prepared statement's result columns are fixed, and PostgreSQL
 * refuses to run it again ("cached plan must not change result type") once a migration adds a
 * column, on every connection that prepared it: a rolling deploy would break the old processes.
 */
const STAR_COLUMNS = /\b(?:SELECT|RETURNING)\s+(?:DISTINCT\s+)?(?:\w+\.)?\*|,\s*(?:\w+\.)?\*\s*(?:,|FROM\b)/i;

/**
 * Marks SQL whose best plan depends on its values, so that it is planned for each of them: a
 * library search for a word on 3 cards wants the trigram index, for a word on 30,000 the newest
 * cards first. A generic plan, chosen once per connection after five runs, would serve one of
 * the two badly from then on.
 */
export const PLANNED_PER_VALUE = '/* planned per value */';

/**
 * Statement names per SQL text, shared by every connection of the process (pg prepares a name
 * on a connection the first time it runs there). Texts past the cap run unnamed, as before:
 * SQL built with a varying number of placeholders must not grow every backend's memory forever.
 */
const MAX_NAMED_STATEMENTS = 2000;
const statementNames = new Map<string, string>();

function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS) {
    name = `lcs_${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return name;
}

/** A pg client that runs every parameterised statement as a named prepared statement (the pool's `Client`). */
export class PreparingClient extends pg.Client {
  override query(...args: unknown[]): never {
    const [config, values, ...rest] = args;
    if (typeof config === 'string' && Array.isArray(values) && values.length > 0) {
      const name = statementName(config);
      if (name) return (super.query as (...a: unknown[]) => never)({ name, text: config, values }, ...rest);
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }
}
