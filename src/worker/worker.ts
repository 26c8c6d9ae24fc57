import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker as Thread } from 'node:worker_threads';
import { NativeConnection, Worker, type WorkflowBundle, type WorkflowBundleOption } from '@temporalio/worker';
import { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import { createActivities, type ActivityDeps } from '../activities/index.ts';
import { installedTracing } from '../platform/telemetry.ts';
import { installTemporalRuntime } from '../platform/temporal-runtime.ts';
import { startOutboxRelay } from '../temporal/outbox-relay.ts';
import { setProviderWait } from '../temporal/activity-failure.ts';
import { watchOutbox } from '../temporal/outbox-metrics.ts';
import { ensureHousekeepingSchedule, ensureOptimisationSchedule } from '../temporal/schedules.ts';

const workflowsPath = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));

/**
 * The OpenTelemetry workflow interceptors, in the bundle of a worker that traces only: they cost a
 * worker much more CPU per card even when their spans are dropped (docs/performance.md, "Tracing
 * interceptors"). They add headers, never commands, so histories written with or without them
 * replay the same either way.
 */
const tracingInterceptorModules = [createRequire(import.meta.url).resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors')];

/** Bundles the workflows once (seconds), in a thread that takes webpack's memory with it (./bundle-thread.ts); tests and production reuse the bundle. */
async function buildWorkflowBundle({ traced = false } = {}): Promise<WorkflowBundle> {
  const thread = new Thread(new URL('./bundle-thread.ts', import.meta.url), {
    workerData: { workflowsPath, workflowInterceptorModules: traced ? tracingInterceptorModules : [] },
    execArgv: [],
  });
  const code = await new Promise<string>((resolve, reject) => {
    thread.once('message', resolve);
    thread.once('error', reject);
    thread.once('exit', (exitCode) => reject(new Error(`the workflow bundler's thread ended (${exitCode}) without a bundle`)));
  });
  await thread.terminate(); // done with its message: nothing it holds is wanted
  return { code };
}

const srcDir = fileURLToPath(new URL('..', import.meta.url));
const lockfile = fileURLToPath(new URL('../../package-lock.json', import.meta.url));

/**
 * The bundle of these very sources: built once and kept, by a hash of every source file and the
 * lockfile (the SDK's version), in the toolchain's cache. Bundling takes seconds of every start
 * and every restart of a worker; reading the kept bundle takes milliseconds. A worker is given the
 * kept file's path rather than its text: the SDK keeps the options it was given for the worker's
 * life, and a bundle given as text stays in the main thread's heap (3.5 MB) after the workflow
 * thread has its copy. A cache that cannot be written gives the bundle itself.
 */
async function keptWorkflowBundle(
  cacheDir = process.env.LCS_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'language-capture'),
  { traced = false } = {},
): Promise<WorkflowBundleOption> {
  const hash = createHash('sha256').update(traced ? 'traced\0' : '');
  for (const file of (readdirSync(srcDir, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).sort()) {
    hash.update(file).update(readFileSync(path.join(srcDir, file)));
  }
  hash.update(readFileSync(lockfile));
  const kept = path.join(cacheDir, 'workflow-bundles', `${hash.digest('hex').slice(0, 32)}.js`);
  if (existsSync(kept)) return { codePath: kept };
  const bundle = await buildWorkflowBundle({ traced });
  try {
    mkdirSync(path.dirname(kept), { recursive: true });
    const partial = `${kept}.${process.pid}.partial`;
    writeFileSync(partial, bundle.code);
    renameSync(partial, kept); // whole or not at all, when two workers start at once
    pruneKeptBundles(path.dirname(kept));
    return { codePath: kept };
  } catch {
    return bundle; // a read-only cache only costs the next start its bundling time
  }
}

/**
 * Bundles kept at most: each change of the sources (an upgrade) keeps one more, 1.7 MB, and a
 * self-hoster's cache would grow for ever. A checkout whose bundle went still runs: its next start
 * bundles again.
 */
const KEPT_BUNDLES = 4;

function pruneKeptBundles(dir: string): void {
  const bundles = readdirSync(dir)
    .filter((name) => /^[0-9a-f]{32}\.js$/.test(name))
    .map((name) => ({ file: path.join(dir, name), modified: statSync(path.join(dir, name)).mtimeMs }))
    .sort((a, b) => b.modified - a.modified);
  for (const { file } of bundles.slice(KEPT_BUNDLES)) rmSync(file, { force: true });
}

/** The kept bundle's text, for what hands it on: the tests' shared file, the history recorder. */
export async function cachedWorkflowBundle(...args: Parameters<typeof keptWorkflowBundle>): Promise<WorkflowBundle> {
  const kept = await keptWorkflowBundle(...args);
  return 'code' in kept ? kept : { code: readFileSync(kept.codePath, 'utf8') };
}

/**
 * How much one worker runs at once. Activities spend nearly all their time waiting on the model
 * provider (up to the model timeout), holding no database connection meanwhile (their statements
 * are short and take a pooled connection each), so a worker's throughput is its slots ÷ the
 * provider's latency. A card's preparation is a local activity, which holds its workflow task's
 * slot while it runs.
 *
 * A workflow-task slot is also where a burst waits its turn: the server accepts an eager start
 * only while a slot is free, and a workflow task it cannot hand to a waiting poller is written to
 * its database and read back. The SDK's defaults (40 slots, 10 pollers) sent most of a burst
 * through that backlog. But a task the worker has taken must be done within the workflow task
 * timeout, or the server takes it back and it runs again from the start of its history: more
 * slots started more of a burst eagerly and made more tasks time out in the worker's queue. So
 * 200: what this worker finishes well within the timeout on two busy cores (the measurements:
 * docs/performance.md, "Worker concurrency"). The sticky cache stays sized by the SDK (by memory).
 */
const WORKER_CONCURRENCY = {
  maxConcurrentActivityTaskExecutions: 200,
  maxConcurrentLocalActivityExecutions: 200,
  maxConcurrentWorkflowTaskExecutions: 200,
  workflowTaskPollerBehavior: { type: 'simple-maximum', maximum: 40 },
} as const;

/**
 * The workflow-task slots a worker has free for eager starts: each poller keeps one reserved for the
 * task its poll may bring, and a card's workflow keeps its slot while its preparation (a local
 * activity) runs.
 */
function workerRoom(worker: Worker): number {
  const { maxConcurrentWorkflowTaskExecutions: slots, workflowTaskPollerBehavior: pollers } = WORKER_CONCURRENCY;
  const status = worker.getStatus();
  return slots - pollers.maximum - status.numInFlightLocalActivities - status.numInFlightWorkflowActivations;
}

/**
 * Workflows run on the worker's main thread, in the SDK's sandbox (a V8 context reused across
 * workflows), not in a worker thread of the SDK's: that thread is a second Node environment and V8
 * heap (29 MB of an idle `npm start`'s 205), took 330 ms of each start to set up, and every
 * activation was copied to it and back. The SDK calls this its debug mode, since a debugger reaches
 * the main thread only; what it gives up is the sandbox's timeout, which this service had already
 * given up for its cost (src/platform/preload.ts). An activation is a short straight line; the
 * main thread hosts it between the API's requests and the activities' statements.
 */
const WORKFLOWS_ON_MAIN_THREAD = { debugMode: true } as const;

/** Temporal's OpenTelemetry interceptors, loaded only in a process that traces. */
const tracingInterceptors = async () => (installedTracing() ? await import('@temporalio/interceptors-opentelemetry') : undefined);

export async function createWorker(deps: ActivityDeps & { bundle?: WorkflowBundleOption }): Promise<{ worker: Worker; connection: NativeConnection }> {
  await installTemporalRuntime();
  setProviderWait(deps.config.providerOutage.wait);
  const tracing = installedTracing();
  const otel = await tracingInterceptors();
  const connection = await NativeConnection.connect({ address: deps.config.temporal.address! });
  const worker = await Worker.create({
    connection,
    namespace: deps.config.temporal.namespace,
    taskQueue: deps.config.temporal.taskQueue,
    workflowBundle: deps.bundle ?? (await keptWorkflowBundle(undefined, { traced: tracing !== undefined })),
    activities: createActivities(deps),
    // When tracing, each activity runs in a span of its own, a child of the workflow's (src/platform/telemetry.ts).
    ...(tracing && otel
      ? {
          interceptors: {
            activity: [
              (ctx) => ({ inbound: new otel.OpenTelemetryActivityInboundInterceptor(ctx), outbound: new otel.OpenTelemetryActivityOutboundInterceptor(ctx) }),
            ],
          },
          sinks: { exporter: otel.makeWorkflowExporter(tracing.processor, tracing.resource) },
        }
      : {}),
    ...WORKER_CONCURRENCY,
    ...WORKFLOWS_ON_MAIN_THREAD,
  });
  return { worker, connection };
}

/**
 * Besides the NOTIFY of each new row, the relay looks for undispatched starts this often: rows
 * whose start failed (Temporal away), notifications lost with the listening connection.
 */
const OUTBOX_POLL_EVERY_MS = 1_000;

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
export async function runWorker(
  deps: Parameters<typeof createWorker>[0] & { temporal: Client; logger?: Pick<Logger, 'warn' | 'error'> },
): Promise<RunningWorker> {
  const { worker, connection } = await createWorker(deps);
  await Promise.all([ensureHousekeepingSchedule(deps.temporal, deps.config, deps.logger), ensureOptimisationSchedule(deps.temporal, deps.config, deps.logger)]);
  // The relay starts through the worker's own connection, eagerly: the first workflow task comes
  // back in the start's answer, to this worker, without a trip through the task queue. A tracing
  // process passes each row's trace on to its workflow.
  const otel = await tracingInterceptors();
  const relayClient = new Client({
    connection,
    namespace: deps.config.temporal.namespace,
    ...(otel ? { interceptors: { workflow: [new otel.OpenTelemetryWorkflowClientInterceptor()] } } : {}),
  });
  const databaseUrl = deps.orm.config.get('clientUrl')!;
  const stopRelay = startOutboxRelay(
    deps.orm,
    relayClient,
    { taskQueue: deps.config.temporal.taskQueue, databaseUrl, pollEveryMs: OUTBOX_POLL_EVERY_MS, eager: true, workerRoom: () => workerRoom(worker) },
    deps.logger,
  );
  const unwatchOutbox = watchOutbox(deps.orm);
  const done = worker.run().finally(() => connection.close());
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      unwatchOutbox();
      await stopRelay();
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done.catch(() => {}); // a worker that failed has reported it through `done`
    })());
  return { done, stop };
}
