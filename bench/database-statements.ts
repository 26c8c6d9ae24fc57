/**
 * PostgreSQL's own count of what it ran (pg_stat_statements, loaded by the bench's database with
 * `shared_preload_libraries`): statements per phase, and the most frequent ones. Read as the
 * superuser, with the password the embedded database keeps beside its cluster.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { CREDENTIALS_FILE } from '../src/platform/embedded-postgres.ts';

export const STATEMENT_STATS_SETTINGS = { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'top' };

interface StatementCount {
  calls: number;
  query: string;
}

export interface StatementStats {
  /** Forgets what was counted so far: a phase starts here. */
  reset(): Promise<void>;
  /** The application's statements since the last reset (the bench's own polling left out), most frequent first. */
  since(): Promise<{ total: number; top: StatementCount[] }>;
  close(): Promise<void>;
}

/** Statements the bench itself runs while it waits (waitForReady, the samplers): not the service's. */
const BENCH_OWN = /FILTER \(WHERE enrichment_status|pg_stat_activity|pg_stat_statements/;

export async function openStatementStats(dataDir: string, appUrl: string): Promise<StatementStats> {
  const { superuser } = JSON.parse(readFileSync(path.join(dataDir, CREDENTIALS_FILE), 'utf8')) as { superuser: string };
  const url = new URL(appUrl);
  const client = new pg.Client({ host: url.hostname, port: Number(url.port), database: url.pathname.slice(1), user: 'postgres', password: superuser });
  await client.connect();
  await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  return {
    reset: async () => {
      await client.query('SELECT pg_stat_statements_reset()');
    },
    async since() {
      const { rows } = await client.query<{ calls: string; query: string }>(
        `SELECT calls, left(regexp_replace(query, '\\s+', ' ', 'g'), 110) AS query FROM pg_stat_statements
         WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND userid = (SELECT oid FROM pg_roles WHERE rolname = $1)
         ORDER BY calls DESC`,
        [url.username],
      );
      const own = rows.map((r) => ({ calls: Number(r.calls), query: r.query })).filter((r) => !BENCH_OWN.test(r.query));
      return { total: own.reduce((sum, r) => sum + r.calls, 0), top: own.slice(0, 10) };
    },
    close: () => client.end(),
  };
}
