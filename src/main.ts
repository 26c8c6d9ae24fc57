// `npm start`: the whole service in one foreground process. Embedded PostgreSQL unless
// DATABASE_URL is set; a local Temporal dev server (SQLite, Web UI) unless TEMPORAL_ADDRESS is
// set; migrations; the worker; the HTTP server. Ctrl-C stops everything; data stays in DATA_DIR.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildApp } from './api/app.ts';
import { loadConfig } from './config.ts';
import { startEmbeddedPostgres } from './platform/embedded-postgres.ts';
import { createLogger, openServices } from './platform/services.ts';
import { startTemporalDevServer } from './platform/temporal-dev-server.ts';
import { startFakeProvider } from './model/fake-provider.ts';
import { runWorker } from './worker/worker.ts';

const config = loadConfig();
const logger = createLogger(config);
const stops: (() => Promise<unknown>)[] = [];

async function start() {
  if (config.model.provider === 'fake') {
    const fake = await startFakeProvider();
    stops.push(() => fake.close());
    config.model.baseUrl = fake.baseUrl;
    config.model.apiKey = 'fake-provider';
    logger.warn('*'.repeat(72));
    logger.warn(`MODEL_PROVIDER=fake: answers come from a FAKE model provider at ${fake.baseUrl}. Translations are placeholders. Never use this for real learners.`);
    logger.warn('*'.repeat(72));
  } else if (!config.model.apiKey) {
    logger.warn('OPENROUTER_API_KEY is not set: captures are saved but their preparation fails until a key is configured (or run with MODEL_PROVIDER=fake to try the service).');
  }

  if (!config.databaseUrl) {
    const db = await startEmbeddedPostgres({ dataDir: config.dataDir, log: (line) => logger.debug({ postgres: line.trim() }) });
    stops.push(() => db.stop());
    config.databaseUrl = db.url;
    // Lets operator commands (npm run set-plan) reach the embedded database while it runs.
    writeFileSync(path.join(config.dataDir, 'database-url'), db.url, { mode: 0o600 });
    logger.info({ dataDir: config.dataDir }, 'embedded PostgreSQL running');
  }

  if (!config.temporal.address) {
    const dev = await startTemporalDevServer({
      dataDir: path.join(config.dataDir, 'temporal'),
      uiPort: config.temporal.uiPort,
      log: (line) => logger.debug({ temporal: line.trim() }),
    });
    stops.push(() => dev.stop());
    config.temporal.address = dev.address;
    logger.info({ address: dev.address, webUi: dev.uiUrl }, 'Temporal dev server running');
  }

  const services = await openServices(config, logger);
  stops.push(() => services.close());

  const worker = await runWorker({ config, orm: services.orm, model: services.model, temporal: services.temporal, logger });
  worker.done.catch((error: unknown) => {
    // A worker that cannot run leaves captures unprepared: stop the whole service loudly.
    logger.fatal({ err: error }, 'the Temporal worker stopped unexpectedly');
    void stop(1);
  });
  stops.push(() => worker.stop());

  const app = await buildApp({ config, ...services }, { loggerInstance: logger });
  stops.push(() => app.close());
  await app.listen({ port: config.port, host: config.host });
  logger.info(`Ready: API ${config.publicOrigin}/api, reference ${config.publicOrigin}/docs, Temporal Web UI http://localhost:${config.temporal.uiPort}`);
}

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  logger.info('stopping');
  // Reverse order of start: HTTP first, then the worker, then Temporal and PostgreSQL.
  for (const fn of stops.reverse()) {
    try { await fn(); } catch (error) { logger.error({ err: error }, 'error while stopping'); }
  }
  process.exit(code);
}

process.once('SIGINT', () => void stop(0));
process.once('SIGTERM', () => void stop(0));
start().catch((error) => {
  logger.fatal({ err: error }, 'start-up failed');
  void stop(1);
});
