// `npm start`: the whole service in one foreground process. Embedded PostgreSQL unless
// DATABASE_URL is set; a local Temporal dev server (SQLite, Web UI) unless TEMPORAL_ADDRESS is
// set; migrations; the worker; the web app's build when web/ changed; the HTTP server. Ctrl-C stops everything; data stays in DATA_DIR.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from './config.ts';
import { SERVICE_CLUSTER_SETTINGS, startEmbeddedPostgres } from './platform/embedded-postgres.ts';
import { createLogger } from './platform/logger.ts';
import { type Dependency, supervise, type Supervised } from './platform/supervisor.ts';
import { DevServerStartError, startTemporalDevServer } from './platform/temporal-dev-server.ts';
import { startFakeProvider } from './model/fake-provider/server.ts';
import { ensureWebBuild } from './platform/web-build.ts';

/** Milliseconds since Node started this process: loading the modules above (what starts PostgreSQL and Temporal) took this long. */
const entryLoadedAt = performance.now();
const config = loadConfig();
const logger = createLogger(config);
/** Each start-up step's milliseconds, said with the Ready line: where a start's seconds go. */
const phases: string[] = [`entry modules ${Math.round(entryLoadedAt)}`];

/**
 * The service's own modules (the HTTP app, the worker, the clients: about 3 s of a second start, Node compiling and
 * linking them) load while PostgreSQL and the dev server start in processes of their own, instead of before.
 */
async function loadServiceModules() {
  const [{ buildApp }, { openServices }, { startMetricsServer }, { installTracing, shutdownTracing }, { runWorker }] = await Promise.all([
    import('./http/app.ts'),
    import('./wiring/services.ts'),
    import('./platform/metrics.ts'),
    import('./platform/telemetry.ts'),
    import('./worker/worker.ts'),
  ]);
  return { buildApp, openServices, startMetricsServer, installTracing, shutdownTracing, runWorker };
}
type ServiceModules = Awaited<ReturnType<typeof loadServiceModules>>;
async function timed<T>(phase: string, step: () => Promise<T>): Promise<T> {
  const began = performance.now();
  try {
    return await step();
  } finally {
    phases.push(`${phase} ${Math.round(performance.now() - began)}`);
  }
}
interface Stop {
  what: string;
  stop: () => Promise<unknown>;
}
/** What `stop` undoes, in the order of start; each named in its log line. */
const stops: Stop[] = [];
const supervised: Supervised<Dependency>[] = [];

async function start() {
  const serviceModules = timed('service modules (beside PostgreSQL and Temporal)', loadServiceModules);
  serviceModules.catch(() => {}); // awaited below; a failure is reported there
  // Built beside the start of the database and Temporal; only a change of web/ rebuilds it.
  const webBuild = ensureWebBuild((message) => logger.info(message));
  webBuild.catch(() => {}); // awaited below; a failure is reported there
  if (config.model.provider === 'fake') {
    const fake = await startFakeProvider();
    stops.push({ what: 'fake model provider', stop: () => fake.close() });
    config.model.baseUrl = fake.baseUrl;
    config.model.apiKey = 'fake-provider';
    logger.warn('*'.repeat(72));
    logger.warn(
      `MODEL_PROVIDER=fake: answers come from a FAKE model provider at ${fake.baseUrl}. Translations are placeholders. Never use this for real learners.`,
    );
    logger.warn('*'.repeat(72));
  } else if (config.model.provider === 'openai-compatible') {
    logger.info(
      { modelHost: new URL(config.model.baseUrl).host, model: config.model.model || '(the one the endpoint lists)' },
      'the model is the deployment’s own OpenAI-compatible endpoint',
    );
  } else if (!config.model.apiKey) {
    logger.warn(
      'OPENROUTER_API_KEY is not set: captures are saved but their preparation fails until a key is configured (or run with MODEL_PROVIDER=fake to try the ' +
        'service).',
    );
  }

  // The dependencies npm start runs are supervised: one that dies is restarted on the same
  // address (clients reconnect by themselves), and one that cannot be kept running stops the
  // whole service with a non-zero exit, for the machine's own supervisor.
  const giveUp = (error: unknown) => {
    logger.fatal({ reason: (error as Error).message }, 'a dependency could not be kept running; exiting so that a supervisor can restart the service');
    void stop(1);
  };

  // PostgreSQL and the dev server start side by side: neither needs the other. Both are waited
  // for even when one fails, so that whichever did start is in `stops` when the failure stops all.
  mkdirSync(config.dataDir, { recursive: true }); // before either makes it, so neither makes it with its own mode
  const started = await Promise.allSettled([
    timed('PostgreSQL', () => startDatabaseIfWanted(giveUp)),
    timed('Temporal dev server', () => startTemporalIfWanted(giveUp)),
  ]);
  // Kept in this order whichever finished first, so that they stop in the reverse: Temporal, then PostgreSQL.
  for (const one of started) if (one.status === 'fulfilled' && one.value) stops.push(one.value);
  for (const one of started) if (one.status === 'rejected') throw one.reason;

  const { buildApp, openServices, startMetricsServer, installTracing, shutdownTracing, runWorker } = await serviceModules;
  // Stopped after the worker and the HTTP server, whose last spans it sends.
  if (await installTracing(config)) stops.push({ what: 'trace export', stop: () => shutdownTracing() });
  const services = await timed('migrations and clients', () => openServices(config, logger));
  stops.push({ what: 'database and Temporal clients', stop: () => services.close() });

  // The worker and the HTTP app are made side by side (neither needs the other: a request's work reaches the worker
  // through the outbox); both are waited for, so that whichever was made is in `stops` when the other failed.
  const [workerMade, appMade] = await Promise.allSettled([
    timed('worker', () => runWorker({ config, orm: services.orm, model: services.model, temporal: services.temporal, logger })),
    timed('HTTP app (after the web build)', async () => {
      await webBuild;
      return buildApp({ config, ...services }, { loggerInstance: logger });
    }),
  ]);
  if (workerMade.status === 'fulfilled') {
    const worker = workerMade.value;
    worker.done.catch((error: unknown) => {
      // A worker that cannot run leaves captures unprepared: stop the whole service loudly.
      logger.fatal({ err: error }, 'the Temporal worker stopped unexpectedly');
      void stop(1);
    });
    stops.push({ what: 'worker', stop: () => worker.stop() });
  }
  if (appMade.status === 'rejected') throw appMade.reason;
  const app = appMade.value;
  if (workerMade.status === 'rejected') {
    stops.push({ what: 'HTTP server', stop: () => app.close() });
    throw workerMade.reason;
  }
  // Stopped after the HTTP server and before the worker.
  await startMetricsIfWanted(startMetricsServer, config.metrics.port ?? DEFAULT_METRICS_PORT);
  stops.push({ what: 'HTTP server', stop: () => app.close() });
  await app.listen({ port: config.port, host: config.host });
  logger.info(`Ready: API ${config.publicOrigin}/api, reference ${config.publicOrigin}/docs, Temporal Web UI http://localhost:${config.temporal.uiPort}`);
  // Set by bin/with-toolchain.sh when it began: the time a newcomer waited, set-up included.
  const launchedAt = Number(process.env.LCS_LAUNCHED_AT_MS);
  const setUp = launchedAt > 0 ? Math.round(performance.timeOrigin - launchedAt) : null;
  if (setUp !== null) phases.unshift(`set-up ${setUp}`);
  const since = (from: number, what: string) => `${((Date.now() - from) / 1000).toFixed(1)} s after ${what}`;
  const total = launchedAt > 0 ? since(launchedAt, 'npm start') : since(performance.timeOrigin, 'Node started');
  logger.info(`Ready ${total}; ms: ${phases.join(', ')}`);
}

/** The embedded PostgreSQL, unless DATABASE_URL names a database; supervised, its address kept for operator commands. */
async function startDatabaseIfWanted(giveUp: (error: unknown) => void): Promise<Stop | null> {
  if (config.databaseUrl) return null;
  const startDatabase = (port?: number) =>
    startEmbeddedPostgres({
      dataDir: config.dataDir,
      ...(port ? { port } : {}),
      settings: SERVICE_CLUSTER_SETTINGS,
      log: (line) => logger.debug({ postgres: line.trim() }),
    });
  const first = await startDatabase();
  const port = Number(new URL(first.url).port);
  const db = supervise({ name: 'embedded PostgreSQL', first, restart: () => startDatabase(port), logger, giveUp });
  supervised.push(db);
  config.databaseUrl = first.url;
  // Lets operator commands (npm run set-plan) reach the embedded database while it runs.
  writeFileSync(path.join(config.dataDir, 'database-url'), first.url, { mode: 0o600 });
  logger.info({ dataDir: config.dataDir, pid: first.pid }, 'embedded PostgreSQL running');
  return { what: 'embedded PostgreSQL', stop: () => db.stop() };
}

/** A local Temporal dev server, unless TEMPORAL_ADDRESS names one; supervised, its address kept for operator commands. */
async function startTemporalIfWanted(giveUp: (error: unknown) => void): Promise<Stop | null> {
  if (config.temporal.address) return null;
  const devOptions = {
    dataDir: path.join(config.dataDir, 'temporal'),
    uiPort: config.temporal.uiPort,
    log: (line: string) => logger.debug({ temporal: line.trim() }),
  };
  const first = await startTemporalDevServer(devOptions);
  const dev = supervise({
    name: 'Temporal dev server',
    first,
    restart: () => startTemporalDevServer({ ...devOptions, port: first.ports.grpc }),
    logger,
    giveUp,
  });
  supervised.push(dev);
  config.temporal.address = first.address;
  // Lets operator commands (npm run ops) reach the dev server while it runs.
  writeFileSync(path.join(config.dataDir, 'temporal-address'), first.address, { mode: 0o600 });
  logger.info({ address: first.address, webUi: first.uiUrl, pid: first.pid }, 'Temporal dev server running');
  return { what: 'Temporal dev server', stop: () => dev.stop() };
}

/** `npm start` exposes its metrics by default; a taken port costs the metrics, not the service. */
const DEFAULT_METRICS_PORT = 9464;

async function startMetricsIfWanted(startMetricsServer: ServiceModules['startMetricsServer'], port: number) {
  try {
    const metrics = await startMetricsServer({ port, host: config.metrics.host });
    stops.push({ what: 'metrics listener', stop: () => metrics.close() });
    logger.info({ url: metrics.url }, 'Prometheus metrics');
  } catch (error) {
    logger.warn({ err: (error as Error).message, port }, 'metrics listener not started; set METRICS_PORT to another port');
  }
}

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  logger.info('stopping');
  // A dependency that exits from now on is not restarted: a terminal's Ctrl-C reaches it as well.
  for (const dependency of supervised) dependency.release();
  // Reverse order of start: HTTP first, then the worker, then Temporal and PostgreSQL.
  for (const { what, stop: stopIt } of stops.reverse()) {
    try {
      await stopIt();
      logger.info(`stopped: ${what}`);
    } catch (error) {
      logger.error({ err: error }, `error while stopping: ${what}`);
    }
  }
  // The process ends by itself once nothing is left: pino writes asynchronously, and a line still on
  // its way at process.exit() would land after those flushed then, or not at all. Whatever still
  // holds the event loop gets a moment, then the exit is forced.
  process.exitCode = code;
  setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref();
}

const EXIT_GRACE_MS = 2_000;

// `on`, not `once`: a signal may come twice (npm forwards the terminal's Ctrl-C that the process got
// already), and a second one with no listener left would end the process mid-shutdown. SIGHUP (a
// closed terminal) stops in the same order, rather than leaving PostgreSQL and Temporal running.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(0));
start().catch((error) => {
  // A dev server that did not start says why in one line; anything else keeps its stack.
  if (error instanceof DevServerStartError) logger.fatal({ reason: error.message }, 'start-up failed');
  else logger.fatal({ err: error }, 'start-up failed');
  void stop(1);
});
