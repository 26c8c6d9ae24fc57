import type { Client } from '@temporalio/client';
import type { Config } from '../config.ts';
import type { Em, Orm } from '../db/orm.ts';
import type { ModelClient } from '../model/model-client.ts';
import { workflowStarter, type WorkflowStarter } from '../temporal/workflow-starter.ts';

/** Where a feature tells the operator what went wrong: pino's order (fields, then the message), ids and codes only. */
export interface FeatureLog {
  warn(fields: object, message: string): void;
}

/**
 * What every feature entry point takes first: the functions that operations (src/http),
 * activities (src/activities) and the operator commands (src/cli) call, e.g.
 * `captureCard(ctx, userId, text)`. One signature, whichever the caller:
 * - `em` is this call's own EntityManager: a fork per request, per activity run, per command. A
 *   service that needs several transactions, or statements beside one (a lease's renewals, an
 *   announcement after the commit), uses `ctx.em.transactional` and `ctx.em.fork()`, never the ORM.
 * - A function that runs its statements inside a caller's transaction takes that transaction
 *   instead (`lockWallet(tx, userId)`, `charge(tx, …)`): it is a step of the caller's work.
 * - Workflows are started, woken and cancelled through `workflows`: a feature never imports
 *   src/workflows or the relay.
 * Built in one place (featureContexts) for REST, tRPC, the activities and the operator commands.
 */
export interface FeatureContext {
  readonly em: Em;
  readonly workflows: WorkflowStarter;
  readonly model: ModelClient;
  readonly config: Config;
  readonly log: FeatureLog;
}

/**
 * What a process builds its contexts from. `temporal` is null in a process that never cancels a
 * workflow (an operator command that only reads); starts never need it (the relay makes them).
 */
export interface FeatureServices {
  config: Config;
  orm: Orm;
  temporal: Client | null;
  model: ModelClient;
}

/** A process's maker of contexts: each call forks a fresh EntityManager. */
export type FeatureContexts = (log: FeatureLog) => FeatureContext;

/**
 * The process's contexts: one workflow starter for the process, a fresh EntityManager per call.
 * Touches none of the services until a context is made (the OpenAPI document is built without them).
 */
export function featureContexts(services: FeatureServices): FeatureContexts {
  const workflows = workflowStarter({ orm: services.orm, temporal: services.temporal, taskQueue: services.config.temporal.taskQueue });
  return (log) => ({ em: services.orm.em.fork(), workflows, model: services.model, config: services.config, log });
}
