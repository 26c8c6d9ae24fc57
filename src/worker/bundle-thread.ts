/**
 * A thread's entry, started by URL (buildWorkflowBundle in ./worker.ts): bundles the workflows with webpack and posts
 * the code back. In a thread of its own so that what webpack holds goes when it ends: bundled on the service's own
 * thread, it kept about 75 MB of an idle `npm start` after every first start of new sources.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { bundleWorkflowCode } from '@temporalio/worker';

const { workflowsPath, workflowInterceptorModules } = workerData as { workflowsPath: string; workflowInterceptorModules: string[] };

const quietBundlerLogger = {
  log: () => {},
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: (message: string) => console.warn(message),
  error: (message: string) => console.error(message),
};

const { code } = await bundleWorkflowCode({ workflowsPath, workflowInterceptorModules, logger: quietBundlerLogger });
parentPort!.postMessage(code);
