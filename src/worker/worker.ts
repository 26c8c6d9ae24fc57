import { fileURLToPath } from 'node:url';
import { DefaultLogger, NativeConnection, Runtime, Worker, bundleWorkflowCode, type WorkflowBundle, type WorkflowBundleOption } from '@temporalio/worker';
import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import { createActivities, type ActivityDeps } from '../activities/index.ts';
import { startOutboxRelay } from '../temporal/outbox-dispatch.ts';
import { ensureHousekeepingSchedule } from '../temporal/schedules.ts';

export const workflowsPath = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));

/** Bundles the workflows once (seconds); tests and production reuse the bundle. */
export async function buildWorkflowBundle(): Promise<WorkflowBundle> {
  return bundleWorkflowCode({ workflowsPath, logger: quietBundlerLogger });
}

const quietBundlerLogger = {
  log: () => {}, trace: () => {}, debug: () => {}, info: () => {},
  warn: (message: string) => console.warn(message),
  error: (message: string) => console.error(message),
};

let runtimeInstalled = false;

/**
 * The SDK logs through its own runtime: keep it to warnings so logs stay ours. No shutdown
 * signals: the hosting process stops the worker itself, in its own order.
 */
function installQuietRuntime() {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  try {
    Runtime.install({ logger: new DefaultLogger('WARN'), shutdownSignals: [] });
  } catch {
    // Already installed by the host (e.g. a test runner): keep theirs.
  }
}

export async function createWorker(deps: ActivityDeps & { bundle?: WorkflowBundleOption; maxConcurrentActivities?: number }): Promise<{ worker: Worker; connection: NativeConnection }> {
  installQuietRuntime();
  const connection = await NativeConnection.connect({ address: deps.config.temporal.address! });
  const worker = await Worker.create({
    connection,
    namespace: deps.config.temporal.namespace,
    taskQueue: deps.config.temporal.taskQueue,
    workflowBundle: deps.bundle ?? (await buildWorkflowBundle()),
    activities: createActivities(deps),
    maxConcurrentActivityTaskExecutions: deps.maxConcurrentActivities ?? 50,
  });
  return { worker, connection };
}

/** The relay looks for undispatched workflow starts this often, once they are this old. */
export const OUTBOX_RELAY = { intervalMs: 1000, staleAfterMs: 3000 } as const;

export interface RunningWorker {
  /** Settles when the worker has stopped; rejects when it could not keep running. */
  done: Promise<void>;
  /** Stops the relay, then drains the worker; safe to call more than once. */
  stop(): Promise<void>;
}

/**
 * A worker with the outbox relay beside it: the process that executes workflows is also the one
 * that starts those a crash left behind. Every host (npm start, npm run worker, tests, bench)
 * runs both through here, so none can forget the relay.
 */
export async function runWorker(deps: Parameters<typeof createWorker>[0] & { temporal: Client; logger?: Pick<Logger, 'warn' | 'error'> }): Promise<RunningWorker> {
  const { worker, connection } = await createWorker(deps);
  await ensureHousekeepingSchedule(deps.temporal, deps.config, deps.logger);
  const stopRelay = startOutboxRelay(deps.orm, deps.temporal, OUTBOX_RELAY, deps.logger);
  const done = worker.run().finally(() => connection.close());
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= (async () => {
    await stopRelay();
    if (worker.getState() === 'RUNNING') worker.shutdown();
    await done.catch(() => {}); // a worker that failed has reported it through `done`
  })());
  return { done, stop };
}
