import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { createFsrsOptimisationActivities } from '../activities/fsrs-optimisation.ts';
import type { OptimisationOutcome } from '../features/replay/optimisation-rules.ts';

type OptimisationActivities = ReturnType<typeof createFsrsOptimisationActivities>;

/** A fit takes seconds (fsrs-rs, a learner's whole log); heartbeats notice a worker that died mid-fit. */
const { fitLearnerParameters } = proxyActivities<OptimisationActivities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes', maximumAttempts: 5 },
});

const { queueDueOptimisations } = proxyActivities<OptimisationActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '5 seconds', maximumInterval: '1 minute', maximumAttempts: 5 },
});

/**
 * Fits one learner's FSRS weights on their review log and applies them when they beat the ones
 * in use on held-out reviews. Ids only in the history; the result is the figures (Web UI).
 */
export async function fsrsOptimisationWorkflow(userId: string): Promise<OptimisationOutcome> {
  return fitLearnerParameters({ userId, runKey: workflowInfo().workflowId });
}

/** The weekly pass (Schedule `fsrs-optimisation/<task queue>`): queues a fit for each learner who is due one. */
export async function fsrsOptimisationSweepWorkflow(): Promise<{ queued: number }> {
  return queueDueOptimisations();
}
