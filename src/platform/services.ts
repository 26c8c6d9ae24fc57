import type { Client } from '@temporalio/client';
import pino from 'pino';
import type { Config } from '../config.ts';
import { createOrm, migrate, type Orm } from '../db/orm.ts';
import { createModelClient, type ModelClient } from '../model/model-client.ts';
import { connectTemporal, ensureSearchAttributes } from './temporal.ts';

export interface Services {
  orm: Orm;
  temporal: Client;
  model: ModelClient;
  close(): Promise<void>;
}

export const createLogger = (config: Config) => pino({ level: config.logLevel, base: { service: 'language-capture' } });

/**
 * What both the API and the worker need: the database (migrated), one Temporal client, the
 * model client. Requires config.databaseUrl and config.temporal.address to be set.
 */
export async function openServices(config: Config, logger: pino.Logger): Promise<Services> {
  if (!config.databaseUrl || !config.temporal.address) throw new Error('DATABASE_URL and TEMPORAL_ADDRESS must be set (npm start sets both up for you).');
  const orm = await createOrm(config.databaseUrl);
  await migrate(orm);
  const temporal = await connectTemporal(config.temporal.address, config.temporal.namespace);
  await ensureSearchAttributes(temporal, config.temporal.namespace, (m) => logger.warn(m));
  const model = createModelClient(config.model, { logger });
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
