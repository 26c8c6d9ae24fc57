import { Context } from '@temporalio/activity';
import type { FeatureLog } from '../features/context.ts';
import type { BackgroundCall } from '../features/credits/paid-call.ts';
import { providerWaitWindowMs } from '../temporal/activity-failure.ts';

/** The running activity's log (the SDK's, which tags each line with its workflow and activity), for the features. */
export const activityLog: FeatureLog = {
  warn: (fields, message) => {
    Context.current().log.warn(message, { ...fields });
  },
};

/**
 * Well inside the workflows' heartbeat timeout (src/temporal/failures.ts, `LONG_CALL.heartbeatTimeout`),
 * which the server counts from the attempt's start, so a worker that dies before its first
 * heartbeat is noticed as soon. Most model calls end within 3 s and so send none: a heartbeat is
 * an RPC and a write to the run's state on the Temporal server.
 */
const HEARTBEAT_EVERY_MS = 3_000;

/** The running activity, as a paid call sees it: its attempt, its deadline, its cancellation. */
function backgroundCall(context: Context = Context.current()): BackgroundCall {
  return {
    attemptScheduledAt: context.info.currentAttemptScheduledTimestampMs,
    deadline: Date.now() + context.info.startToCloseTimeoutMs,
    providerWaitMs: providerWaitWindowMs(),
    signal: context.cancellationSignal,
  };
}

/**
 * Runs one long call of the running activity (a model or speech call) while heartbeating, so a
 * worker that dies mid-call is noticed within the heartbeat timeout rather than the long
 * start-to-close timeout, and a cancellation reaches the call.
 */
export async function whileHeartbeating<T>(work: (call: BackgroundCall, context: Context) => Promise<T>): Promise<T> {
  const context = Context.current();
  // A local activity has no heartbeat of its own: its workflow task's heartbeat stands for it.
  const heartbeat = context.info.isLocal ? undefined : setInterval(() => context.heartbeat(), HEARTBEAT_EVERY_MS);
  try {
    return await work(backgroundCall(context), context);
  } finally {
    clearInterval(heartbeat);
  }
}
