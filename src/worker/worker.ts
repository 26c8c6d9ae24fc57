import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker, bundleWorkflowCode, type WorkflowBundle, type WorkflowBundleOption } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities/index.ts';

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

export async function createWorker(deps: ActivityDeps & { bundle?: WorkflowBundleOption; maxConcurrentActivities?: number }): Promise<{ worker: Worker; connection: NativeConnection }> {
  const connection = await NativeConnection.connect({ address: deps.config.temporal.address! });
  const worker = await Worker.create({
    connection,
    namespace: deps.config.temporal.namespace,
    taskQueue: deps.config.temporal.taskQueue,
    ...(deps.bundle ? { workflowBundle: deps.bundle } : { workflowsPath }),
    activities: createActivities(deps),
    maxConcurrentActivityTaskExecutions: deps.maxConcurrentActivities ?? 50,
  });
  return { worker, connection };
}

/** The relay looks for undispatched workflow starts this often, once they are this old. */
export const OUTBOX_RELAY = { intervalMs: 1000, staleAfterMs: 3000 } as const;
