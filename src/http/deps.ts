import type { Client } from '@temporalio/client';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config.ts';
import type { Orm } from '../db/orm.ts';
import type { FeatureServices } from '../features/context.ts';
import type { ModelClient } from '../model/model-client.ts';

/** What the HTTP layer is built from: what its feature contexts are made of (src/features/context.ts). */
export interface AppDeps extends FeatureServices {
  config: Config;
  orm: Orm;
  temporal: Client;
  model: ModelClient;
}

export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;
