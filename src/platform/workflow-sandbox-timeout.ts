/**
 * Preloaded into every service process (`--require`, in package.json's `config.serviceNodeFlags`) so
 * that it runs in the Temporal SDK's workflow thread too: a worker thread inherits its process's
 * preloads, and the SDK gives us no other way in.
 *
 * The SDK calls into a workflow's sandbox with `vm.Script#runInContext` and a `timeout` (its
 * `isolateExecutionTimeout`, 5 s), and Node enforces a vm timeout by starting and joining a thread
 * of its own for every call (nodejs/node#47739, open since 2023): about 140 µs of CPU per call
 * against 1.3 µs without, and a card's workflow makes dozens of calls. Those threads were the
 * largest item of the worker's profile (docs/performance.md, "The workflow sandbox's timeout").
 * So in worker threads a call runs without its timeout. Given up: a workflow stuck in an endless
 * loop is not interrupted after 5 s (the SDK's debug mode gives that up too); ours are short
 * straight lines, and test/integration/workflows/history-replay.test.ts replays every recorded
 * history. The import readers, the other worker threads of the service, run no vm code.
 */
import vm from 'node:vm';
import { isMainThread } from 'node:worker_threads';

type RunInContext = (this: vm.Script, context: vm.Context, options?: vm.RunningScriptOptions) => unknown;

if (!isMainThread) {
  const timed = Object.getOwnPropertyDescriptor(vm.Script.prototype, 'runInContext')!.value as RunInContext;
  vm.Script.prototype.runInContext = function (this: vm.Script, context: vm.Context, options?: vm.RunningScriptOptions): unknown {
    const { timeout: _perCallThread, ...untimed } = options ?? {};
    return timed.call(this, context, untimed);
  };
}
