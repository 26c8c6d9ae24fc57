import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Client } from '@temporalio/client';
import { inject } from 'vitest';
import { buildApp } from '../../src/http/app.ts';
import type { App } from '../../src/http/deps.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { createOrm, type Orm } from '../../src/db/orm.ts';
import { featureContexts, type FeatureContext, type FeatureServices } from '../../src/features/context.ts';
import { createModelClient } from '../../src/model/model-client.ts';
import { modelBreaker, modelCallSlots } from '../../src/wiring/services.ts';
import { outputModeMemory } from '../../src/services/output-mode-memory.ts';
import { startFakeProvider, type FakeProvider } from '../../src/model/fake-provider/server.ts';
import { connectTemporal } from '../../src/temporal/connection.ts';
import { installTemporalRuntime } from '../../src/platform/temporal-runtime.ts';
import { runWorker } from '../../src/worker/worker.ts';
import { installedTracing } from '../../src/platform/telemetry.ts';

// Tests provoke activity and workflow failures on purpose; the SDK's warnings about them are noise.
await installTemporalRuntime('ERROR');

export interface Stack {
  config: Config;
  orm: Orm;
  temporal: Client;
  fake: FakeProvider;
  app: App;
  baseUrl: string;
  /**
   * A feature context on this stack, as a request or an activity has one (src/features/context.ts),
   * for tests that call a service directly; `services` replaces some of the stack's (a Temporal
   * client that cannot connect, a model client of the test's own).
   */
  context(services?: Partial<FeatureServices>): FeatureContext;
  /** Stops this file's worker (e.g. to test work that waits for one); `startWorker` brings it back. */
  stopWorker(): Promise<void>;
  startWorker(): Promise<void>;
  close(): Promise<void>;
}

/**
 * One test file's service: the real app listening on a real port, its own fake model provider,
 * its own Temporal task queue and worker, on the run's shared PostgreSQL and Temporal server.
 */
export async function startStack(
  options: {
    env?: Record<string, string>;
    worker?: boolean;
    databaseUrl?: string;
    /** The provider's circuit breaker, as `npm start` wires it. */ breaker?: boolean;
  } = {},
): Promise<Stack> {
  const infra = inject('infra');
  // A file that takes its database away (an outage test) brings a private one.
  const databaseUrl = options.databaseUrl ?? infra.databaseUrl;
  const fake = await startFakeProvider();
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: infra.temporalAddress,
    TEMPORAL_TASK_QUEUE: `test-${randomUUID()}`,
    OPENROUTER_BASE_URL: fake.baseUrl,
    OPENROUTER_API_KEY: 'test-key',
    // The router unless a file asks for the deployment's own endpoint, which is the same fake (MODEL_BASE_URL alone would choose it).
    MODEL_PROVIDER: 'openrouter',
    MODEL_BASE_URL: fake.baseUrl,
    MODEL_MAX_RETRIES: '1',
    MODEL_TIMEOUT_MS: '3000',
    // A provider outage is waited out for seconds, not half an hour: tests of a failing provider see the card fail.
    PROVIDER_WAIT_WINDOW_MS: '3000',
    PROVIDER_WAIT_MAX_DELAY_MS: '1000',
    RATE_LIMIT_MAX: '100000',
    RATE_LIMIT_MODEL_MAX: '100000',
    RATE_LIMIT_ADDRESS_MAX: '100000',
    RATE_LIMIT_SIGNUP_MAX: '100000',
    LOG_LEVEL: 'silent',
    PORT: '0',
    ...options.env,
  });
  const orm = await createOrm(databaseUrl);
  const temporal = await connectTemporal(infra.temporalAddress, config.temporal.namespace);
  const model = createModelClient(config.model, {
    ...(options.breaker ? { breaker: modelBreaker(orm, config) } : {}),
    outputModes: outputModeMemory(orm, config.model.baseUrl, () => config.model.model),
    ...modelCallSlots(orm, config),
  });
  const app = await buildApp({ config, orm, temporal, model }, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  // The service's own origin, for cookie-authenticated writes.
  config.publicOrigin = baseUrl;
  config.allowedOrigins.push(baseUrl);

  let stopWorker = async () => {};
  const startWorker = async () => {
    // The run's shared bundle has no tracing interceptors; a file that traces bundles its own (cached).
    const running = await runWorker({ config, orm, model, temporal, ...(installedTracing() ? {} : { bundle: { codePath: infra.workflowBundlePath } }) });
    stopWorker = async () => {
      await running.stop();
      stopWorker = async () => {};
    };
  };
  if (options.worker !== false) await startWorker();

  return {
    config,
    orm,
    temporal,
    fake,
    app,
    baseUrl,
    context: (services = {}) => featureContexts({ config, orm, temporal, model, ...services })({ warn: () => {} }),
    stopWorker: () => stopWorker(),
    startWorker,
    async close() {
      await stopWorker();
      await app.close();
      await temporal.connection.close();
      await orm.close();
      await fake.close();
    },
  };
}
