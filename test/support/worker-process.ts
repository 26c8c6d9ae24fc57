// A worker in its own process, for tests that kill it (SIGKILL) mid-work. Configured from the
// environment like the real worker (DATABASE_URL, TEMPORAL_ADDRESS, TEMPORAL_TASK_QUEUE,
// OPENROUTER_BASE_URL, …) plus WORKFLOW_BUNDLE_PATH (the run's pre-built workflow bundle).
// Prints "worker-ready" once it polls its task queue. Runs the outbox relay beside it, like every
// worker: it is the one starter of the work the test sends.
import { loadConfig } from '../../src/config.ts';
import { createOrm } from '../../src/db/orm.ts';
import { createModelClient } from '../../src/model/model-client.ts';
import { connectTemporal } from '../../src/temporal/connection.ts';
import { runWorker } from '../../src/worker/worker.ts';
import { modelCallSlots } from '../../src/wiring/services.ts';

const config = loadConfig();
const bundlePath = process.env.WORKFLOW_BUNDLE_PATH;
if (!config.databaseUrl || !config.temporal.address || !bundlePath) throw new Error('DATABASE_URL, TEMPORAL_ADDRESS and WORKFLOW_BUNDLE_PATH are required');

const orm = await createOrm(config.databaseUrl);
const model = createModelClient(config.model, modelCallSlots(orm, config));
const temporal = await connectTemporal(config.temporal.address, config.temporal.namespace);
const running = await runWorker({ config, orm, model, temporal, bundle: { codePath: bundlePath } });
process.once('SIGTERM', () => void running.stop());
console.log('worker-ready');
await running.done;
await temporal.connection.close();
await orm.close();
