/**
 * Preloaded into every service process (`--require`, in package.json's `config.serviceNodeFlags`),
 * before its entry's modules load, and into any worker thread it starts (a worker thread inherits its
 * process's preloads). The service's worker runs its workflows on its main thread (src/worker/worker.ts);
 * a worker made without that option (the bench's floor) runs them in a thread of the SDK's. Besides
 * the compile cache's set-up, it cuts two costs the SDK offers no option for. Both were at the top of the worker's CPU
 * profile (docs/performance.md, "The workflow sandbox's timeout" and "Workflow stack traces"). The
 * import readers, the service's other worker threads, run no vm code and make no use of promise hooks;
 * nothing else of the service or its dependencies calls either.
 */
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { isMainThread } from 'node:worker_threads';

type RunInContext = (this: vm.Script, context: vm.Context, options?: vm.RunningScriptOptions) => unknown;

/*
 * Node strips the types of each of the service's modules and compiles them at every start; its compile
 * cache keeps both for the next one (docs/performance.md, "Start-up"), in every thread. bin/with-toolchain.sh
 * names the folder in NODE_COMPILE_CACHE before Node starts, which also covers this file; a process started
 * without it enables the cache here, for the modules after this one.
 */
const cacheRoot = process.env.LCS_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'language-capture');
module.enableCompileCache(process.env.NODE_COMPILE_CACHE ?? path.join(cacheRoot, 'node-compile-cache'));

/*
 * Node holds every module's compile cache, read at its load or made for the next start, in memory
 * until it writes the cache at exit: 14 MB for the service's 2,300 modules, for the process's life.
 * Written after every MODULES_PER_CACHE_WRITE loads instead, a batch's memory returns to malloc while
 * modules still load, and the next batch reuses it: once written at the end, the 14 MB had stayed
 * resident as holes in malloc's heap (docs/performance.md, "Idle memory"). A process that is killed
 * rather than stopped keeps its cache too.
 */
const MODULES_PER_CACHE_WRITE = 100;
let loadedSinceCacheWrite = 0;
module.registerHooks({
  load(url, context, nextLoad) {
    if (++loadedSinceCacheWrite >= MODULES_PER_CACHE_WRITE) {
      loadedSinceCacheWrite = 0;
      module.flushCompileCache();
    }
    return nextLoad(url, context);
  },
});

/*
 * The SDK calls into a workflow's sandbox with `vm.Script#runInContext` and a `timeout` (its
 * `isolateExecutionTimeout`: 5 s in a thread of its own, 2^32 − 1 ms, no limit, on the main thread),
 * and Node enforces a vm timeout by starting and joining a thread of its own for every call
 * (nodejs/node#47739, open since 2023): about 140 µs of CPU per call against 1.3 µs without, and a
 * card's workflow makes dozens of calls. So a call runs without its timeout. Given up: a workflow stuck
 * in an endless loop is not interrupted after 5 s (the SDK's main-thread mode gives that up too); ours
 * are short straight lines, and test/integration/workflows/history-replay.test.ts replays every
 * recorded history. On the main thread only the SDK's "no limit" is dropped: any other caller keeps its timeout.
 */
const NO_LIMIT_MS = 2 ** 32 - 1;
const timed = Object.getOwnPropertyDescriptor(vm.Script.prototype, 'runInContext')!.value as RunInContext;
vm.Script.prototype.runInContext = function (this: vm.Script, context: vm.Context, options?: vm.RunningScriptOptions): unknown {
  if (options?.timeout === undefined || (isMainThread && options.timeout < NO_LIMIT_MS)) return timed.call(this, context, options);
  const { timeout: _perCallThread, ...untimed } = options;
  return timed.call(this, context, untimed);
};

/*
 * For the Web UI's "stack trace" of a running workflow, the SDK hooks every promise made, and builds a
 * source-mapped stack trace for each of a workflow's, whether anyone asks or not: a third of the
 * workflow thread's CPU, and on the main thread every promise of the API and the activities too.
 * Without the hook the SDK turns the feature off by itself (it says so once per worker on stderr, as
 * "not available"), and the query answers that stack traces are not enabled. Our workflows wait on one
 * activity at a time: their history says where they are.
 */
v8.promiseHooks.createHook = () => {
  throw new Error('workflow stack traces are off in this service (src/platform/preload.ts)');
};
