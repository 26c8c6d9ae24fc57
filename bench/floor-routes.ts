import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { App } from '../src/http/deps.ts';
import type { Orm } from '../src/db/orm.ts';

/**
 * Bench-only routes, registered before the app listens (never part of the production app).
 * POST /bench/floor is the FLOOR for a capture: the same route guards as POST /api/library
 * (bearer auth, model rate-limit bucket, language check) and one INSERT of a similar row.
 */
export async function addBenchRoutes(app: App, orm: Orm): Promise<void> {
  await orm.em.fork().execute(`CREATE TABLE IF NOT EXISTS bench_floor_cards (
    id uuid PRIMARY KEY, user_id uuid NOT NULL, text text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
  app.post('/bench/floor', {
    config: { modelBacked: true, requiresLanguages: true },
    schema: { hide: true, body: z.object({ text: z.string().min(1).max(1000) }) },
  }, async (request, reply) => {
    const id = randomUUID();
    await orm.em.fork().execute(`INSERT INTO bench_floor_cards (id, user_id, text) VALUES (?, ?, ?)`, [id, request.principal!.userId, request.body.text]);
    return reply.code(202).send({ id });
  });
}
