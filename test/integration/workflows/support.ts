import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Context } from '@temporalio/activity';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, makeTelemetryFilterString, Runtime, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import type { Activities } from '../../../src/activities/index.ts';
import { activityFailure } from '../../../src/temporal/activity-failure.ts';
import { SearchAttributeType } from '@temporalio/common';
import { freePort, waitForPort } from '../../../src/platform/free-port.ts';
import { kindKey, outcomeKey, userIdKey } from '../../../src/temporal/search-attributes.ts';
import { AppError, type ProblemCode } from '../../../src/domain/problems.ts';

// Tests fail, cancel and time out activities on purpose: the SDK's warnings about them are noise,
// and so is the core's about the test server's missing capabilities (heartbeat details on failure).
try {
  Runtime.install({
    logger: new DefaultLogger('ERROR'),
    telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'ERROR' }), forward: {} } },
    shutdownSignals: [],
  });
} catch {
  // Already installed in this process: keep it.
}

/**
 * Temporal's time-skipping test server: `TEMPORAL_TEST_SERVER_PATH` (bin/with-toolchain.sh sets it
 * for `vitest`), else whatever temporal/ensure-test-server.sh finds or fetches.
 */
function testServerPath(): string {
  const known = process.env.TEMPORAL_TEST_SERVER_PATH;
  if (known) return known;
  const script = fileURLToPath(new URL('../../../temporal/ensure-test-server.sh', import.meta.url));
  return execFileSync('sh', [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
}

const OUR_SEARCH_ATTRIBUTES = [userIdKey, kindKey, outcomeKey];
/** temporal.api.enums.v1.IndexedValueType.KEYWORD: every one of ours is a keyword. */
const INDEXED_VALUE_TYPE_KEYWORD = 2;
if (OUR_SEARCH_ATTRIBUTES.some((key) => key.type !== SearchAttributeType.KEYWORD))
  throw new Error('a search attribute is no longer a keyword: register it with its type');

/** How long a test server may take to listen: a JVM's start on two busy cores. */
const TEST_SERVER_START_MS = 60_000;

/**
 * Starts the test server on a free port and waits for it. `createTimeSkipping` would start it too,
 * but gives any server 5 s to listen, which a JVM on a loaded machine overruns.
 */
async function startTestServer(): Promise<{ address: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(testServerPath(), [String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-5_000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const early = exited.then(() => {
    throw new Error(`Temporal's test server exited during start-up: ${stderr}`);
  });
  try {
    await Promise.race([waitForPort('127.0.0.1', port, TEST_SERVER_START_MS), early]);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  early.catch(() => {});
  return {
    address: `127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGKILL'); // it keeps nothing worth a graceful stop
      await exited;
    },
  };
}

/**
 * The SDK's own factory, as `createTimeSkipping` calls it once its server listens. It is not part of
 * the typed API; a renamed factory fails here, loudly, at the first workflow test.
 */
const createEnvironment = (
  TestWorkflowEnvironment as unknown as {
    create(options: { server: { type: 'existing' }; address: string; namespace: string; supportsTimeSkipping: true }): Promise<TestWorkflowEnvironment>;
  }
).create.bind(TestWorkflowEnvironment);

/**
 * One time-skipping test server for the file: a workflow's timers, activity retry backoffs and
 * timeouts pass as soon as nothing else is running, so minutes of retries take seconds. Its
 * namespace knows our search attributes, as every namespace the service runs on does.
 */
export function useTimeSkipping(): () => TestWorkflowEnvironment {
  let server: Awaited<ReturnType<typeof startTestServer>> | undefined;
  let env: TestWorkflowEnvironment | undefined;
  beforeAll(async () => {
    server = await startTestServer();
    env = await createEnvironment({ server: { type: 'existing' }, address: server.address, namespace: 'default', supportsTimeSkipping: true });
    // The test server can add search attributes but not list them, so ensureSearchAttributes cannot run here.
    await env.connection.operatorService.addSearchAttributes({
      namespace: 'default',
      searchAttributes: Object.fromEntries(OUR_SEARCH_ATTRIBUTES.map((key) => [key.name, INDEXED_VALUE_TYPE_KEYWORD])),
    });
  });
  afterAll(async () => {
    await env?.teardown();
    await server?.stop();
  });
  return () => env!;
}

export type MockActivities = Partial<Activities>;

/**
 * Runs `start` on a fresh task queue served by a worker with the real workflow bundle (the one the
 * suite built from src/workflows) and `activities` in place of the real ones, until it settles.
 */
export async function runWithWorker<T>(
  env: TestWorkflowEnvironment,
  activities: MockActivities,
  start: (client: Client, taskQueue: string) => Promise<T>,
): Promise<T> {
  const taskQueue = `workflows-${randomUUID()}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    namespace: 'default',
    taskQueue,
    workflowBundle: { codePath: inject('infra').workflowBundlePath },
    activities,
  });
  return worker.runUntil(start(env.client, taskQueue));
}

/**
 * What an activity throws when its work fails for `code`: the production mapping
 * (src/temporal/activity-failure.ts), so whether Temporal tries again is decided as in production
 * (a verdict at once, a provider outage briefly, the database for minutes).
 */
export function failsWith(code: ProblemCode | 'database_unreachable'): never {
  const error =
    code === 'database_unreachable'
      ? Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })
      : new AppError(code, `The work failed: ${code}.`);
  throw activityFailure(error);
}

/** An activity that never answers, until Temporal cancels it (its timeout, the worker's shutdown). */
export async function hangs(): Promise<never> {
  await Context.current().sleep(24 * 3_600_000);
  throw new Error('unreachable');
}

/**
 * Runs `work` and says how far the test server's clock ran ahead of this process's meanwhile: the time it
 * skipped, timers and retry backoffs that passed in the workflow's time without being waited for. A lower
 * bound (the server is read after our clock at the start and before it at the end), so a server that
 * waited its timers out in real time gives at most a millisecond or two, never a backoff.
 */
export async function timeSkipped<T>(env: TestWorkflowEnvironment, work: () => Promise<T>): Promise<{ result: T; skippedMs: number }> {
  const oursBefore = Date.now();
  const serverBefore = await env.currentTimeMs();
  const result = await work();
  const serverAfter = await env.currentTimeMs();
  const oursAfter = Date.now();
  return { result, skippedMs: serverAfter - serverBefore - (oursAfter - oursBefore) };
}

/** The attempt number of the running activity (1-based). */
export const attempt = () => Context.current().info.attempt;

/** The `LcsOutcome` search attribute a closed run was tagged with. */
export async function outcomeOf(handle: WorkflowHandle): Promise<string | undefined> {
  return (await handle.describe()).typedSearchAttributes.get(outcomeKey);
}

/** The run's events by kind (`markerRecorded`, `activityTaskScheduled`, ...): what its commands were. */
export async function eventKinds(handle: WorkflowHandle): Promise<string[]> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).map((event) => {
    const attributes = Object.entries(event).find(([key, value]) => key.endsWith('EventAttributes') && value);
    return attributes ? attributes[0].replace(/EventAttributes$/, '') : 'unknown';
  });
}

/** A workflow's result, or how it failed. */
export interface Settled<T> {
  value?: T;
  error?: unknown;
}

export const settle = <T>(result: Promise<T>): Promise<Settled<T>> =>
  result.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

/** Asserts the failure chain of a workflow that ended FAILED with a catalog code (its own failure, not an activity's). */
export function expectFailedWith(error: unknown, code: ProblemCode) {
  expect(error).toMatchObject({ name: 'WorkflowFailedError', cause: { name: 'ApplicationFailure', type: code, nonRetryable: true } });
  return error as { cause: { details?: unknown[]; cause?: unknown } };
}
