import { z } from 'zod';
import type { App, AppDeps } from '../deps.ts';
import { AppError } from '../../domain/problems.ts';
import { problems } from '../schemas/common.ts';

export async function healthRoutes(app: App, { orm, temporal }: AppDeps) {
  app.get('/healthz', {
    config: { auth: 'public' },
    schema: { tags: ['operations'], summary: 'The process is up', response: { 200: z.object({ status: z.literal('ok') }) } },
  }, async () => ({ status: 'ok' as const }));

  app.get('/readyz', {
    config: { auth: 'public' },
    schema: { tags: ['operations'], summary: 'PostgreSQL and Temporal are reachable', response: { 200: z.object({ status: z.literal('ready'), database: z.literal('ok'), temporal: z.literal('ok') }), ...problems(503) } },
  }, async () => {
    // Bounded, so a load balancer's probe gets an answer even when a dependency hangs.
    const [database, workflows] = await Promise.allSettled([
      Promise.race([orm.em.fork().execute('SELECT 1'), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000))]),
      temporal.connection.withDeadline(Date.now() + 2000, () => temporal.connection.workflowService.getSystemInfo({})),
    ]);
    if (database.status === 'rejected') throw new AppError('service_unavailable', 'The database is not reachable.');
    if (workflows.status === 'rejected') throw new AppError('service_unavailable', 'Temporal is not reachable.');
    return { status: 'ready' as const, database: 'ok' as const, temporal: 'ok' as const };
  });
}
