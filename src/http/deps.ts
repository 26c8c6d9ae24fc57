import type { Client } from '@temporalio/client';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config.ts';
import type { Orm } from '../db/orm.ts';
import type { ModelClient } from '../model/model-client.ts';

/** What the HTTP layer is built from. The same object feeds tRPC's context. */
export interface AppDeps {
  config: Config;
  orm: Orm;
  temporal: Client;
  model: ModelClient;
}

export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;
