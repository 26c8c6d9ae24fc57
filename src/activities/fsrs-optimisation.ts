import { MIN_LONG_TERM_REVIEWS, type OptimisationOutcome } from '../features/replay/optimisation-rules.ts';
import { fitLearnerParameters } from '../features/replay/fitting.ts';
import { enqueueOptimisation } from '../features/replay/optimiser.ts';
import { wakeOutboxRelay } from '../temporal/outbox-relay.ts';
import { activityFailure } from '../temporal/activity-failure.ts';
import { whileHeartbeating } from './background-call.ts';
import type { ActivityDeps } from './index.ts';
import { sql, allRows } from '../db/sql.ts';

/** The personal FSRS optimiser's activities: one learner's fit, and the weekly pass that queues fits. */
export function createFsrsOptimisationActivities(deps: ActivityDeps) {
  return {
    /** Keyed by the workflow (`runKey`): a retry returns the version the first attempt stored. */
    async fitLearnerParameters({ userId, runKey }: { userId: string; runKey: string }): Promise<OptimisationOutcome> {
      try {
        return await whileHeartbeating(() => fitLearnerParameters(deps.orm.em.fork(), userId, runKey));
      } catch (error) {
        throw activityFailure(error);
      }
    },

    /**
     * Queues a fit for every learner whose log could train one and who reviewed since their last
     * fit. A learner whose log has not changed is refused by Temporal (same workflow id).
     */
    async queueDueOptimisations(): Promise<{ queued: number }> {
      try {
        const em = deps.orm.em.fork();
        const queued = await em.transactional(async (tx) => {
          const due = await allRows<{ user_id: string }>(tx,
            sql`SELECT r.user_id FROM review_logs r GROUP BY r.user_id
             HAVING count(*) >= ${MIN_LONG_TERM_REVIEWS} AND max(r.reviewed_at) > coalesce((SELECT max(p.created_at) FROM fsrs_parameters p
               WHERE p.user_id = r.user_id), '-infinity')`,
          );
          for (const { user_id } of due) await enqueueOptimisation(tx, user_id, deps.config.temporal.taskQueue);
          return due.length;
        });
        if (queued > 0) wakeOutboxRelay(deps.orm);
        return { queued };
      } catch (error) {
        throw activityFailure(error);
      }
    },
  };
}
