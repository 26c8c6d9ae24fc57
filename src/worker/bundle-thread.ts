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

const INLINE_SOURCE_MAP = '//# sourceMappingURL=data:application/json;charset=utf-8;base64,';

/**
 * The bundle with its inline source map (which the SDK requires) left without the sources' text
 * (`sourcesContent`, 0.6 MB of the map's 0.9). The SDK maps a failing workflow's stack trace through
 * the map's positions and names, which stay; the text it never reads, yet a worker held it for its
 * life three times over: in the bundle's text, the decoded map and the parsed one (docs/performance.md,
 * "Idle memory").
 */
function withoutSourcesText(code: string): string {
  const at = code.lastIndexOf(INLINE_SOURCE_MAP);
  if (at < 0) throw new Error('the workflow bundle has no inline source map');
  const { sourcesContent: _text, ...map } = JSON.parse(Buffer.from(code.slice(at + INLINE_SOURCE_MAP.length).trim(), 'base64').toString()) as {
    sourcesContent?: unknown;
  };
  return `${code.slice(0, at)}${INLINE_SOURCE_MAP}${Buffer.from(JSON.stringify(map)).toString('base64')}\n`;
}

const { code } = await bundleWorkflowCode({ workflowsPath, workflowInterceptorModules, logger: quietBundlerLogger });
parentPort!.postMessage(latin1Only(withoutSourcesText(code)));
