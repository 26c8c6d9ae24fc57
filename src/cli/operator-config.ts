// What operator commands connect to: the worker's configuration (DATABASE_URL, TEMPORAL_ADDRESS),
// or, when those are unset, what a running `npm start` wrote into DATA_DIR.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import type { Config } from '../config.ts';
import type { Orm } from '../db/orm.ts';
import { featureContexts, type FeatureContext } from '../features/context.ts';
import { createModelClient } from '../model/model-client.ts';

const written = (config: Config, file: string): string | null => {
  const at = path.join(config.dataDir, file);
  return existsSync(at) ? readFileSync(at, 'utf8').trim() : null;
};

export function operatorDatabaseUrl(config: Config): string {
  const url = config.databaseUrl ?? written(config, 'database-url');
  if (!url) throw new OperatorError('Set DATABASE_URL, or run this while `npm start` runs the embedded database.');
  return url;
}

export function operatorTemporalAddress(config: Config): string {
  const address = config.temporal.address ?? written(config, 'temporal-address');
  if (!address) throw new OperatorError('Set TEMPORAL_ADDRESS, or run this while `npm start` runs its Temporal dev server.');
  return address;
}

/**
 * An operator command's feature context (src/features/context.ts), as a request's or an
 * activity's: its database, Temporal where the command needs it, warnings on stderr (stdout is
 * the command's answer).
 */
export function operatorContext(config: Config, orm: Orm, temporal: Client | null = null): FeatureContext {
  const log = { warn: (fields: object, message: string) => console.error(message, JSON.stringify(fields)) };
  return featureContexts({ config, orm, temporal, model: createModelClient(config.model) })(log);
}

/** A mistake of the operator's: said in one line, exit code 2. */
export class OperatorError extends Error {}
