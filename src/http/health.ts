import { z } from 'zod';
import type { App, AppDeps } from './deps.ts';
import { AppError } from '../domain/problems.ts';
import { problems } from './problem-responses.ts';
import { run, sql } from '../db/sql.ts';

export async function healthRoutes(app: App, { orm, temporal }: AppDeps) {
  app.get(
    '/healthz',
    {
      config: { auth: 'public' },
      schema: { tags: ['operations'], summary: 'The process is up', response: { 200: z.object({ status: z.literal('ok') }) } },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['operations'],
        summary: 'PostgreSQL and Temporal are reachable',
        response: { 200: z.object({ status: z.literal('ready'), database: z.literal('ok'), temporal: z.literal('ok') }), ...problems(503) },
      },
    },
    async () => {
      // One deadline for the whole answer, so a load balancer's probe is answered in time even when
      // a dependency hangs. The gRPC deadline alone is not enough: the Temporal client's retry
      // interceptor may still be waiting out a backoff when it passes (answers came seconds late).
      const deadline = Date.now() + READY_DEADLINE_MS;
      const [database, workflows] = await Promise.allSettled([
        byDeadline(run(orm.em.fork(), sql`SELECT 1`), deadline),
        byDeadline(
          temporal.connection.withDeadline(deadline, () => temporal.connection.workflowService.getSystemInfo({})),
          deadline,
        ),
      ]);
      if (database.status === 'rejected') throw new AppError('service_unavailable', 'The database is not reachable.');
      if (workflows.status === 'rejected') throw new AppError('service_unavailable', 'Temporal is not reachable.');
      return { status: 'ready' as const, database: 'ok' as const, temporal: 'ok' as const };
    },
  );
}

const READY_DEADLINE_MS = 2_000;

/** `work`, or a rejection once `deadline` (epoch ms) has passed, whichever comes first. */
function byDeadline<T>(work: Promise<T>, deadline: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('deadline passed')), deadline - Date.now());
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
