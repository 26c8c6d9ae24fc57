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

/**
 * The bundle with every character past U+00FF written as a `\u` escape. V8 keeps a string with
 * even one such character at two bytes a character, and a worker holds its bundle's text for its
 * life: seven dashes and signs in comments (ours and the SDK's) doubled its 1.8 MB to 3.5. In
 * comments, strings and regular expressions an escape reads the same; only a template's raw text
 * would differ, and the workflows use none.
 */
function latin1Only(code: string): string {
  return code.replace(/[\u0100-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const { code } = await bundleWorkflowCode({ workflowsPath, workflowInterceptorModules, logger: quietBundlerLogger });
parentPort!.postMessage(latin1Only(code));
