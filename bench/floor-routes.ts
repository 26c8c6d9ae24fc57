import { randomUUID } from 'node:crypto';
import { getHeapSpaceStatistics } from 'node:v8';
import { z } from 'zod';
import type { App } from '../src/http/deps.ts';
import type { Orm } from '../src/db/orm.ts';
import { preparedStatement, run, sql } from '../src/db/sql.ts';

/** Prepared, like the capture's statement (src/features/library/service.ts), so that the floor stays comparable. */
const floorInsert = preparedStatement(
  'bench_floor_insert',
  (id: string, userId: string, text: string) => sql`INSERT INTO bench_floor_cards (id, user_id, text) VALUES (${id}, ${userId}, ${text})`,
);

/**
 * Bench-only routes, registered before the app listens (never part of the production app).
 * POST /bench/floor is the FLOOR for a capture: the same route guards as POST /api/library
 * (bearer auth, model rate-limit bucket, language check) and one INSERT of a similar row.
 * GET /bench/memory says what the API's resident memory is made of (MB), for the bench's report.
 */
export async function addBenchRoutes(app: App, orm: Orm): Promise<void> {
  await orm.em.fork().execute(`CREATE TABLE IF NOT EXISTS bench_floor_cards (
    id uuid PRIMARY KEY, user_id uuid NOT NULL, text text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
  app.post(
    '/bench/floor',
    {
      config: { modelBacked: true, requiresLanguages: true },
      schema: { hide: true, body: z.object({ text: z.string().min(1).max(1000) }) },
    },
    async (request, reply) => {
      const id = randomUUID();
      await run(orm.em.fork(), floorInsert(id, request.principal!.userId, request.body.text));
      return reply.code(202).send({ id });
    },
  );
  app.get('/bench/memory', { config: { auth: 'public' }, schema: { hide: true } }, async () => {
    const mb = (bytes: number) => Math.round(bytes / 1048576);
    const usage = process.memoryUsage();
    const spaces = Object.fromEntries(
      getHeapSpaceStatistics()
        .filter((s) => s.space_size > 1048576)
        .map((s) => [s.space_name, mb(s.space_size)]),
    );
    return {
      rss: mb(usage.rss),
      heapTotal: mb(usage.heapTotal),
      heapUsed: mb(usage.heapUsed),
      external: mb(usage.external),
      arrayBuffers: mb(usage.arrayBuffers),
      spaces,
    };
  });
}
