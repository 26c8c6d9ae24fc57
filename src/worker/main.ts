// The worker as its own process: `npm run worker` (DATABASE_URL and TEMPORAL_ADDRESS required).
import { loadConfig } from '../config.ts';
import { startMetricsServer } from '../platform/metrics.ts';
import { createLogger } from '../platform/logger.ts';
import { openServices } from '../wiring/services.ts';
import { installTracing, shutdownTracing } from '../platform/telemetry.ts';
import { exitOnStartupTimeout } from '../platform/startup.ts';
import { runWorker } from './worker.ts';

const config = loadConfig();
const logger = createLogger(config);
await installTracing(config);
const services = await openServices(config, logger).catch(exitOnStartupTimeout);
const metrics = config.metrics.port === undefined ? null : await startMetricsServer({ port: config.metrics.port, host: config.metrics.host });
const running = await runWorker({ config, orm: services.orm, model: services.model, temporal: services.temporal, logger });
// `on`, not `once`: a second signal (npm forwards the terminal's Ctrl-C) must not end the process mid-drain.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void running.stop());
logger.info({ taskQueue: config.temporal.taskQueue }, 'worker running');
try {
  await running.done;
} finally {
  await services.close();
  await metrics?.close();
  await shutdownTracing();
  logger.info('worker stopped');
}
