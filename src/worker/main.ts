// The worker as its own process: `npm run worker` (DATABASE_URL and TEMPORAL_ADDRESS required).
import { loadConfig } from '../config.ts';
import { createLogger, openServices } from '../platform/services.ts';
import { startOutboxRelay } from '../services/workflow-outbox.ts';
import { createWorker, OUTBOX_RELAY } from './worker.ts';

const config = loadConfig();
const logger = createLogger(config);
const services = await openServices(config, logger);
const { worker, connection } = await createWorker({ config, orm: services.orm, model: services.model });
const stopRelay = startOutboxRelay(services.orm, services.temporal, OUTBOX_RELAY, logger);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => worker.shutdown());
logger.info({ taskQueue: config.temporal.taskQueue }, 'worker running');
await worker.run();
await stopRelay();
await connection.close();
await services.close();
logger.info('worker stopped');
