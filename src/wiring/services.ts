import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { createOrm, migrate, type Orm } from '../db/orm.ts';
import { isDatabaseUnavailable } from '../domain/database-errors.ts';
import { createModelClient, type ModelClient } from '../model/model-client.ts';
import { createProviderHttp } from '../model/provider-http.ts';
import { outputModeMemory } from '../services/output-mode-memory.ts';
import { providerBreaker } from '../services/provider-breaker.ts';
import { modelSlots, type ModelSlots } from '../services/model-slots.ts';
import { whenReachable } from '../platform/startup.ts';
import { connectTemporal } from '../temporal/connection.ts';
import { ensureSearchAttributes } from '../temporal/search-attributes.ts';

export interface Services {
  orm: Orm;
  temporal: Client;
  model: ModelClient;
  close(): Promise<void>;
}

/**
 * What both the API and the worker need: the database (migrated), one Temporal client, the
 * model client. Requires config.databaseUrl and config.temporal.address to be set. Waits for
 * PostgreSQL and Temporal until the start-up deadline (platform/startup.ts).
 */
export async function openServices(config: Config, logger: Logger): Promise<Services> {
  if (!config.databaseUrl || !config.temporal.address) throw new Error('DATABASE_URL and TEMPORAL_ADDRESS must be set (npm start sets both up for you).');
  if (config.model.provider === 'fake' && !config.model.baseUrl.startsWith('http://127.0.0.1')) {
    throw new Error(
      'MODEL_PROVIDER=fake starts a fake provider inside `npm start` only. For separate processes, run one with `tsx src/model/fake-provider/server.ts ' +
        '<port>` and set OPENROUTER_BASE_URL=http://127.0.0.1:<port>/api/v1.',
    );
  }
  // The fake only checks that a bearer key is sent.
  if (config.model.provider === 'fake') config.model.apiKey ??= 'fake-provider';
  const databaseUrl = config.databaseUrl;
  const temporalAddress = config.temporal.address;
  const deadline = Date.now() + config.startupTimeoutSeconds * 1000;
  const patience = { deadline, timeoutSeconds: config.startupTimeoutSeconds, logger };
  const orm = await whenReachable(
    'PostgreSQL',
    async () => {
      const orm = await createOrm(databaseUrl);
      try {
        await migrate(orm);
        return orm;
      } catch (error) {
        await orm.close(true).catch(() => {});
        throw error;
      }
    },
    { ...patience, isAway: isDatabaseUnavailable },
  );
  // The client cannot tell a server that is down from a wrong address: both are waited for until the deadline.
  const temporal = await whenReachable('Temporal', () => connectTemporal(temporalAddress, config.temporal.namespace), {
    ...patience,
    isAway: () => true,
  }).catch(async (error) => {
    await orm.close();
    throw error;
  });
  await ensureSearchAttributes(temporal, config.temporal.namespace, (m) => logger.warn(m));
  const model = createModelClient(config.model, {
    logger,
    breaker: modelBreaker(orm, config, logger),
    outputModes: outputModeMemory(orm, config.model.baseUrl, () => config.model.model, logger),
    ...modelCallSlots(orm, config),
  });
  return {
    orm,
    temporal,
    model,
    async close() {
      await temporal.connection.close();
      await orm.close();
    },
  };
}

/** The model provider's breaker, one per provider host, shared by every process on the database. */
export function modelBreaker(orm: Orm, config: Pick<Config, 'model' | 'providerOutage'>, logger?: { warn(obj: object, msg?: string): void }) {
  const probeMs = createProviderHttp(config.model).longestCallMs + 30_000;
  return providerBreaker(orm, `model:${new URL(config.model.baseUrl).host}`, {
    openMs: config.providerOutage.breakerOpenMs,
    probeMs,
    ...(logger ? { logger } : {}),
  });
}

/** The deployment's MODEL_MAX_CONCURRENCY slots, shared by every process on the database; none without a cap. */
export function modelCallSlots(orm: Orm, config: Pick<Config, 'model'>): { slots?: ModelSlots } {
  const max = config.model.concurrency.max;
  return max === null ? {} : { slots: modelSlots(orm, config.model.baseUrl, max) };
}
