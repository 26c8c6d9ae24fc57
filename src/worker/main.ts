// The worker as its own process: `npm run worker` (DATABASE_URL and TEMPORAL_ADDRESS required).
import { loadConfig } from '../config.ts';
import { createLogger, openServices } from '../platform/services.ts';
import { runWorker } from './worker.ts';

const config = loadConfig();
const logger = createLogger(config);
const services = await openServices(config, logger);
const running = await runWorker({ config, orm: services.orm, model: services.model, temporal: services.temporal, logger });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void running.stop());
logger.info({ taskQueue: config.temporal.taskQueue }, 'worker running');
try {
  await running.done;
} finally {
  await services.close();
  logger.info('worker stopped');
}
