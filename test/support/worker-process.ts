// A worker in its own process, for tests that kill it (SIGKILL) mid-work. Configured from the
// environment like the real worker (DATABASE_URL, TEMPORAL_ADDRESS, TEMPORAL_TASK_QUEUE,
// OPENROUTER_BASE_URL, …) plus WORKFLOW_BUNDLE_PATH (the run's pre-built workflow bundle).
// Prints "worker-ready" once it polls its task queue. No outbox relay: the test's own stack has one.
import { loadConfig } from '../../src/config.ts';
import { createOrm } from '../../src/db/orm.ts';
import { createModelClient } from '../../src/model/model-client.ts';
import { createWorker } from '../../src/worker/worker.ts';

const config = loadConfig();
const bundlePath = process.env.WORKFLOW_BUNDLE_PATH;
if (!config.databaseUrl || !config.temporal.address || !bundlePath) throw new Error('DATABASE_URL, TEMPORAL_ADDRESS and WORKFLOW_BUNDLE_PATH are required');

const orm = await createOrm(config.databaseUrl);
const model = createModelClient(config.model);
const { worker } = await createWorker({ config, orm, model, bundle: { codePath: bundlePath } });
process.once('SIGTERM', () => worker.shutdown());
const running = worker.run();
console.log('worker-ready');
await running;
await orm.close();
