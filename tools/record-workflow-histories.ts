/**
 * Records the event history of each workflow type and branch that changes the commands a workflow
 * issues, into test/integration/workflows/histories/, for the history-replay test
 * (test/integration/workflows/history-replay.test.ts) to replay against every later version of the
 * workflow code. See docs/workflows.md.
 *
 *   npm run record:histories                         every scenario, with the workflows of this checkout
 *   npm run record:histories -- --only card-enrichment.failed
 *   npm run record:histories -- --workflows-from 2dca87e^ --label before-local-preparation --only card-enrichment
 *
 * It starts what production runs: an embedded PostgreSQL (migrated), a Temporal dev server, the
 * fake model provider, the real HTTP app and the real worker with its activities and outbox
 * relay. Each scenario acts as a user or an operator would (a capture, a deletion, an empty
 * wallet, a Schedule triggered) and the history of the run it caused is written as JSON, the
 * format `temporal workflow show --output json` prints. `--workflows-from` bundles the workflow
 * code of another commit instead (the activities stay this checkout's), to record the shape that
 * runs started by an older deployment have.
 *
 * Histories carry ids, never user text: every text a scenario sends (captures, sentences, emails)
 * carries a marker (`USER_TEXT_MARKER`), and a history that contains one is refused.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Client, WorkflowExecutionDescription } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { bundleWorkflowCode, type WorkflowBundle } from '@temporalio/worker';
import pg from 'pg';
import { loadConfig, type Config } from '../src/config.ts';
import { createOrm, migrate, type Orm } from '../src/db/orm.ts';
import { optimisationKey } from '../src/features/replay/optimisation-rules.ts';
import { enqueueOptimisation } from '../src/features/replay/optimiser.ts';
import { buildApp } from '../src/http/app.ts';
import { createModelClient, type ModelClient } from '../src/model/model-client.ts';
import { startEmbeddedPostgres } from '../src/platform/embedded-postgres.ts';
import { startTemporalDevServer } from '../src/platform/temporal-dev-server.ts';
import { installTemporalRuntime } from '../src/platform/temporal-runtime.ts';
import { connectTemporal } from '../src/temporal/connection.ts';
import { housekeepingScheduleId, optimisationScheduleId } from '../src/temporal/schedules.ts';
import { outcomeKey } from '../src/temporal/search-attributes.ts';
import { workflowId, WORKFLOW_KINDS } from '../src/temporal/workflow-ids.ts';
import { workflowStarter } from '../src/temporal/workflow-starter.ts';
import { cachedWorkflowBundle, runWorker, type RunningWorker } from '../src/worker/worker.ts';
import { startFakeProvider, type FakeMode, type FakeProvider } from '../src/model/fake-provider/server.ts';
import { HISTORIES_DIR, USER_TEXT_MARKER } from './workflow-histories.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The workers' and clients' identity in a recorded history: `pid@host` would name this machine. */
const RECORDER_IDENTITY = 'record-workflow-histories';

/** What a scenario works with: the running service, as its clients and operators see it. */
interface Service {
  config: Config;
  orm: Orm;
  temporal: Client;
  fake: FakeProvider;
  db: pg.Client;
  http(
    method: string,
    url: string,
    options?: { token?: string; cookie?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  newUser(): Promise<{ userId: string; token: string }>;
  stopWorker(): Promise<void>;
  startWorker(): Promise<void>;
}

interface Scenario {
  /** `<workflow kind>.<branch>`: the file's name. */
  name: string;
  /** What the branch does differently, for the reader of the file list (docs/workflows.md). */
  branch: string;
  /** How the run must have ended, and its `LcsOutcome` (none: untagged), or the recording is refused. */
  expect: { status: 'COMPLETED' | 'FAILED'; outcome?: string };
  /** Acts, and returns the id of the workflow run whose history is the recording. */
  run(service: Service): Promise<string>;
}

const userText = (words: string) => `${words} ${USER_TEXT_MARKER}-${randomUUID().slice(0, 8)}`;

async function capture(service: Service, token: string): Promise<string> {
  const res = await service.http('POST', '/api/library', { token, body: { text: userText('once in a blue moon') } });
  if (res.status !== 202) throw new Error(`capture answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.card.cardId;
}

const cardRun = (cardId: string) => workflowId(WORKFLOW_KINDS.cardEnrichment, cardId);

async function postSentence(service: Service, token: string): Promise<string> {
  const res = await service.http('POST', '/api/sentences?mode=async', {
    token,
    headers: { 'x-service-async': '1' },
    body: { original_text: userText('I would like a coffee') },
  });
  if (res.status !== 202) throw new Error(`sentence answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.sentence.id;
}

const sentenceRun = (sentenceId: string) => workflowId(WORKFLOW_KINDS.sentenceTranslation, sentenceId);

async function requestAudio(service: Service, token: string, cardId: string): Promise<string> {
  const res = await service.http('POST', '/api/audio', { token, body: { cardId } });
  if (res.status !== 202) throw new Error(`audio answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.audio.audioId;
}

/** A card that is ready (its own workflow closed), to ask audio for. */
async function readyCard(service: Service, token: string): Promise<string> {
  const cardId = await capture(service, token);
  await closedRun(service.temporal, cardRun(cardId));
  return cardId;
}

/** The run `act` starts, done while the fake model provider answers in `mode`. */
async function whileProviderAnswers(service: Service, mode: FakeMode, act: () => Promise<string>): Promise<string> {
  service.fake.setMode(mode);
  try {
    const id = await act();
    await closedRun(service.temporal, id);
    return id;
  } finally {
    service.fake.setMode('ok');
  }
}

/** The run `act` starts while the fake model provider fails every call for `ms`, done once it is back. */
async function whileProviderDown(service: Service, ms: number, act: () => Promise<string>): Promise<string> {
  service.fake.failFor(ms, { status: 503 });
  const id = await act();
  await closedRun(service.temporal, id);
  return id;
}

/** Work posted while no worker runs, changed by `meanwhile`, then done once the worker is back. */
async function whileWorkerAway<T>(service: Service, post: () => Promise<T>, meanwhile: (posted: T) => Promise<void>): Promise<T> {
  await service.stopWorker();
  try {
    const posted = await post();
    await meanwhile(posted);
    return posted;
  } finally {
    await service.startWorker();
  }
}

/** Triggers a deployment Schedule now and returns the id of the run it started. */
async function triggerSchedule(temporal: Client, scheduleId: string): Promise<string> {
  const handle = temporal.schedule.getHandle(scheduleId);
  // A Schedule names its runs by the second it starts them: a second trigger within the same second
  // would start nothing.
  await sleep(1_000 - (Date.now() % 1_000));
  const latest = async () => (await handle.describe()).info.recentActions.at(-1)?.action.workflow.workflowId;
  const before = await latest();
  await handle.trigger();
  for (;;) {
    const started = await latest();
    if (started && started !== before) return started;
    await sleep(200);
  }
}

const importRun = (importId: string) => workflowId(WORKFLOW_KINDS.libraryImport, importId);

async function startImport(service: Service, token: string, count: number): Promise<string> {
  const expressions = Array.from({ length: count }, (_, i) => userText(`imported phrase ${i}`));
  const res = await service.http('POST', '/api/library/imports', { token, body: { expressions } });
  if (res.status !== 202) throw new Error(`import answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.import.importId;
}

async function untilImportState(service: Service, token: string, importId: string, state: string): Promise<void> {
  for (;;) {
    const res = await service.http('GET', `/api/library/imports/${importId}`, { token });
    if (res.body?.import?.state === state) return;
    await sleep(200);
  }
}

const SCENARIOS: Scenario[] = [
  {
    name: 'card-enrichment.ready',
    branch: 'prepared: completes with outcome ready',
    expect: { status: 'COMPLETED' },
    async run(service) {
      const { token } = await service.newUser();
      return cardRun(await capture(service, token));
    },
  },
  {
    name: 'card-enrichment.failed',
    branch: 'output that failed validation: the failure recorded on the card, FAILED provider_output_invalid',
    expect: { status: 'FAILED', outcome: 'provider_output_invalid' },
    async run(service) {
      const { token } = await service.newUser();
      return whileProviderAnswers(service, 'schema_violation', async () => cardRun(await capture(service, token)));
    },
  },
  {
    name: 'card-enrichment.no-credits',
    branch: 'no credits: the failure recorded on the card, completes with outcome insufficient_credits',
    expect: { status: 'COMPLETED', outcome: 'insufficient_credits' },
    async run(service) {
      const { userId, token } = await service.newUser();
      await service.db.query('UPDATE wallets SET balance = 0 WHERE user_id = $1', [userId]);
      return cardRun(await capture(service, token));
    },
  },
  {
    name: 'card-enrichment.deleted',
    branch: 'the card deleted during its model call: the run cancelled, completes with outcome deleted',
    expect: { status: 'COMPLETED', outcome: 'deleted' },
    async run(service) {
      const { token } = await service.newUser();
      service.fake.setLatency(3_000);
      try {
        const before = service.fake.requests.length;
        const cardId = await capture(service, token);
        while (service.fake.requests.length === before) await sleep(50);
        const res = await service.http('DELETE', `/api/library?cardId=${cardId}`, { token });
        if (res.status !== 204) throw new Error(`delete answered ${res.status}`);
        await closedRun(service.temporal, cardRun(cardId));
        return cardRun(cardId);
      } finally {
        service.fake.setLatency(0);
      }
    },
  },
  {
    name: 'card-enrichment.waited-out-outage',
    branch: 'the provider down for 20 s: the local activity waits it out with server-side timers, then completes with outcome ready',
    expect: { status: 'COMPLETED' },
    async run(service) {
      const { token } = await service.newUser();
      return whileProviderDown(service, 20_000, async () => cardRun(await capture(service, token)));
    },
  },
  {
    name: 'sentence-translation.translated',
    branch: 'translated: completes',
    expect: { status: 'COMPLETED' },
    async run(service) {
      const { token } = await service.newUser();
      return sentenceRun(await postSentence(service, token));
    },
  },
  {
    name: 'sentence-translation.failed',
    branch: 'output that failed validation: the sentence marked failed, FAILED provider_output_invalid',
    expect: { status: 'FAILED', outcome: 'provider_output_invalid' },
    async run(service) {
      const { token } = await service.newUser();
      return whileProviderAnswers(service, 'schema_violation', async () => sentenceRun(await postSentence(service, token)));
    },
  },
  {
    name: 'sentence-translation.waited-out-outage',
    branch: 'the provider down for 20 s: the activity waits it out, then the sentence is translated',
    expect: { status: 'COMPLETED' },
    async run(service) {
      const { token } = await service.newUser();
      return whileProviderDown(service, 20_000, async () => sentenceRun(await postSentence(service, token)));
    },
  },
  {
    name: 'sentence-translation.no-credits',
    branch: 'no credits (the hold lapsed while no worker ran, the balance spent): marked failed, completes',
    expect: { status: 'COMPLETED', outcome: 'insufficient_credits' },
    async run(service) {
      const { userId, token } = await service.newUser();
      const sentenceId = await whileWorkerAway(
        service,
        () => postSentence(service, token),
        async () => {
          await service.db.query(`UPDATE credit_holds SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [userId]);
          await service.db.query('UPDATE wallets SET balance = 0 WHERE user_id = $1', [userId]);
        },
      );
      return sentenceRun(sentenceId);
    },
  },
  {
    name: 'audio.ready',
    branch: 'generated (the local speech engine): completes',
    expect: { status: 'COMPLETED' },
    async run(service) {
      const { token } = await service.newUser();
      return workflowId(WORKFLOW_KINDS.audio, await requestAudio(service, token, await readyCard(service, token)));
    },
  },
  {
    name: 'audio.failed',
    branch: 'the speech engine changed while the clip waited (a verdict): the clip marked failed, FAILED service_unavailable',
    expect: { status: 'FAILED', outcome: 'service_unavailable' },
    async run(service) {
      const { token } = await service.newUser();
      const cardId = await readyCard(service, token);
      const audioId = await whileWorkerAway(
        service,
        () => requestAudio(service, token, cardId),
        async (id) => {
          await service.db.query(`UPDATE audio_clips SET engine = 'a-retired-engine' WHERE id = $1`, [id]);
        },
      );
      return workflowId(WORKFLOW_KINDS.audio, audioId);
    },
  },
  {
    name: 'fsrs-optimisation.fit',
    branch: 'one learner’s fit, queued through the outbox: completes with its figures',
    expect: { status: 'COMPLETED' },
    async run(service) {
      const { userId } = await service.newUser();
      const workflows = workflowStarter({ orm: service.orm, temporal: service.temporal, taskQueue: service.config.temporal.taskQueue });
      await service.orm.em.fork().transactional((tx) => enqueueOptimisation(tx, workflows, userId));
      workflows.wakeRelay();
      return workflowId(WORKFLOW_KINDS.fsrsOptimisation, optimisationKey(userId, 0, null));
    },
  },
  {
    name: 'fsrs-optimisation.weekly-pass',
    branch: 'the weekly Schedule’s pass: queues the due fits, completes with their count',
    expect: { status: 'COMPLETED' },
    run: (service) => triggerSchedule(service.temporal, optimisationScheduleId(service.config.temporal.taskQueue)),
  },
  {
    name: 'housekeeping.pass',
    branch: 'the Schedule’s retention pass: every table swept, completes with the counts',
    expect: { status: 'COMPLETED' },
    run: (service) => triggerSchedule(service.temporal, housekeepingScheduleId(service.config.temporal.taskQueue)),
  },
  {
    name: 'housekeeping.table-failed',
    branch: 'one table’s sweep failing through its retries: the others swept, the pass recorded, FAILED with the counts',
    expect: { status: 'FAILED' },
    async run(service) {
      // A table the sweep cannot find fails it as a broken database would, through its 3 attempts (15 s).
      await service.db.query('ALTER TABLE login_failures RENAME TO login_failures_away');
      try {
        const id = await triggerSchedule(service.temporal, housekeepingScheduleId(service.config.temporal.taskQueue));
        await closedRun(service.temporal, id);
        return id;
      } finally {
        await service.db.query('ALTER TABLE login_failures_away RENAME TO login_failures');
      }
    },
  },
  {
    name: 'library-import.completed',
    branch: 'a list saved and every card prepared: completes',
    expect: { status: 'COMPLETED' },
    async run(service) {
      const { token } = await service.newUser();
      return importRun(await startImport(service, token, 3));
    },
  },
  {
    name: 'library-import.waited-for-credits',
    branch: 'out of credits: waits on a timer, woken by a signal once they are back, then completes',
    expect: { status: 'COMPLETED' },
    async run(service) {
      const { userId, token } = await service.newUser();
      await service.db.query('UPDATE wallets SET balance = 0 WHERE user_id = $1', [userId]);
      const importId = await startImport(service, token, 2);
      await untilImportState(service, token, importId, 'waiting_for_credits');
      await service.db.query('UPDATE wallets SET balance = 500 WHERE user_id = $1', [userId]);
      await service.temporal.workflow.getHandle(importRun(importId)).signal('importWake');
      return importRun(importId);
    },
  },
  {
    name: 'library-import.cancelled',
    branch: 'cancelled (DELETE) while it paces: what had not started is marked, completes with outcome import_cancelled',
    expect: { status: 'COMPLETED', outcome: 'import_cancelled' },
    async run(service) {
      const { token } = await service.newUser();
      service.fake.setLatency(3_000);
      try {
        const importId = await startImport(service, token, 40);
        await untilImportState(service, token, importId, 'preparing');
        const res = await service.http('DELETE', `/api/library/imports/${importId}`, { token });
        if (res.status !== 200) throw new Error(`cancel answered ${res.status}`);
        return importRun(importId);
      } finally {
        service.fake.setLatency(0);
      }
    },
  },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the run exists (the relay starts it a moment after the request) and has closed. */
async function closedRun(temporal: Client, id: string, timeoutMs = 120_000): Promise<WorkflowExecutionDescription> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const description = await temporal.workflow
      .getHandle(id)
      .describe()
      .catch(() => null);
    if (description && description.status.name !== 'RUNNING') return description;
    if (Date.now() > deadline) throw new Error(`${id} has not closed within ${timeoutMs} ms`);
    await sleep(200);
  }
}

/**
 * The history as JSON, without what would tie it to this machine: identities (`pid@host`) and the
 * checkout's path in stack traces. Neither is read on replay.
 */
function historyJson(history: Parameters<typeof historyToJSON>[0]): string {
  const parsed = JSON.parse(historyToJSON(history));
  const scrub = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(scrub);
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([key, inner]) => [key, key === 'identity' && typeof inner === 'string' ? RECORDER_IDENTITY : scrub(inner)]),
      );
    }
    return typeof value === 'string' ? value.replaceAll(root, '') : value;
  };
  return `${JSON.stringify(scrub(parsed), null, 2)}\n`;
}

/** The workflow code of another commit, bundled the way the worker bundles this checkout's. */
async function bundleWorkflowsOf(revision: string): Promise<WorkflowBundle> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lcs-workflows-'));
  try {
    const tar = execFileSync('git', ['-C', root, 'archive', '--format=tar', revision, 'src'], { maxBuffer: 256 * 1024 * 1024 });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
    return await bundleWorkflowCode({
      workflowsPath: path.join(dir, 'src/workflows/index.ts'),
      // The old sources have no node_modules of their own: the SDK comes from this checkout.
      webpackConfigHook: (config) => ({
        ...config,
        resolve: { ...config.resolve, modules: [...(config.resolve?.modules ?? ['node_modules']), path.join(root, 'node_modules')] },
      }),
      logger: { log() {}, trace() {}, debug() {}, info() {}, warn: (m: string) => console.warn(m), error: (m: string) => console.error(m) },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function startService(bundle: WorkflowBundle, dir: string): Promise<Service & { close(): Promise<void> }> {
  const [database, temporalServer, fake] = await Promise.all([
    startEmbeddedPostgres({ dataDir: dir }),
    startTemporalDevServer({ uiPort: null }),
    startFakeProvider(),
  ]);
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: database.url,
    TEMPORAL_ADDRESS: temporalServer.address,
    TEMPORAL_TASK_QUEUE: 'record-workflow-histories',
    OPENROUTER_BASE_URL: fake.baseUrl,
    OPENROUTER_API_KEY: 'recorder-key',
    MODEL_MAX_RETRIES: '1',
    LOG_LEVEL: 'silent',
    PORT: '0',
  });
  const orm = await createOrm(database.url);
  await migrate(orm);
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  await installTemporalRuntime('ERROR');
  const temporal = await connectTemporal(temporalServer.address, config.temporal.namespace);
  const model: ModelClient = createModelClient(config.model);
  const app = await buildApp({ config, orm, temporal, model }, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  config.publicOrigin = baseUrl;
  config.allowedOrigins.push(baseUrl);

  let worker: RunningWorker | undefined;
  const startWorker = async () => {
    worker = await runWorker({ config, orm, model, temporal, bundle });
  };
  const stopWorker = async () => {
    await worker?.stop();
    worker = undefined;
  };
  await startWorker();

  const http: Service['http'] = async (method, url, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.cookie) Object.assign(headers, { cookie: options.cookie, origin: baseUrl });
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(baseUrl + url, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  };
  const newUser = async () => {
    const email = `${USER_TEXT_MARKER}-${randomUUID()}@example.test`;
    const signup = await http('POST', '/api/auth/signup', { body: { email, password: `${USER_TEXT_MARKER} correct horse battery` } });
    const cookie = signup.headers.get('set-cookie')?.split(';')[0];
    if (signup.status !== 201 || !cookie) throw new Error(`signup answered ${signup.status}`);
    await http('PUT', '/api/settings/language', { cookie, body: { targetLanguage: 'en', nativeLanguage: 'fr' } });
    const minted = await http('POST', '/api/tokens', { cookie, body: { name: 'recorder', scope: 'write' } });
    if (minted.status !== 201) throw new Error(`token answered ${minted.status}`);
    return { userId: signup.body.userId as string, token: minted.body.token as string };
  };

  return {
    config,
    orm,
    temporal,
    fake,
    db,
    http,
    newUser,
    stopWorker,
    startWorker,
    async close() {
      await stopWorker();
      await app.close();
      await temporal.connection.close();
      await db.end();
      await orm.close();
      await fake.close();
      await temporalServer.stop();
      await database.stop();
    },
  };
}

async function main() {
  const { values } = parseArgs({
    options: {
      only: { type: 'string', multiple: true },
      'workflows-from': { type: 'string' },
      label: { type: 'string' },
    },
  });
  const fromRevision = values['workflows-from'];
  if (fromRevision && !values.label) throw new Error('--workflows-from needs a --label for the files (e.g. before-local-preparation)');
  const scenarios = SCENARIOS.filter((s) => !values.only || values.only.some((prefix) => s.name.startsWith(prefix)));
  if (scenarios.length === 0) throw new Error(`no scenario matches ${values.only?.join(', ')}; there are ${SCENARIOS.map((s) => s.name).join(', ')}`);

  const bundle = fromRevision ? await bundleWorkflowsOf(fromRevision) : await cachedWorkflowBundle();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lcs-record-'));
  chmodSync(dir, 0o755); // PostgreSQL runs as an unprivileged user and must reach its data dir
  const service = await startService(bundle, dir);
  mkdirSync(HISTORIES_DIR, { recursive: true });
  try {
    for (const scenario of scenarios) {
      const started = Date.now();
      const id = await scenario.run(service);
      const closed = await closedRun(service.temporal, id);
      const outcome = closed.typedSearchAttributes.get(outcomeKey);
      if (closed.status.name !== scenario.expect.status || outcome !== scenario.expect.outcome) {
        throw new Error(
          `${scenario.name}: ${id} ended ${closed.status.name} with outcome ${outcome}, not ${JSON.stringify(scenario.expect)}; nothing is written`,
        );
      }
      const json = historyJson(await service.temporal.workflow.getHandle(id).fetchHistory());
      if (json.includes(USER_TEXT_MARKER)) throw new Error(`${scenario.name}: the history of ${id} holds user text; it is not written`);
      const [workflow, branch] = scenario.name.split('.');
      const file = path.join(HISTORIES_DIR, `${[workflow, values.label, branch].filter(Boolean).join('.')}.json`);
      writeFileSync(file, json);
      console.log(`${path.relative(root, file)}: ${closed.type} ${closed.status.name}, ${scenario.branch} (${Date.now() - started} ms)`);
    }
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
