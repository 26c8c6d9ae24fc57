import type { Config } from '../config.ts';
import type { Orm } from '../db/orm.ts';
import type { ModelClient } from '../model/model-client.ts';
import { createCardEnrichmentActivities } from './card-enrichment.ts';
import { createSentenceActivities } from './sentences.ts';
import { createAudioActivities } from './audio.ts';
import { createHousekeepingActivities } from './housekeeping.ts';
import { createFsrsOptimisationActivities } from './fsrs-optimisation.ts';


/** What activities are built from; the worker passes real clients, tests the same. */
export interface ActivityDeps {
  config: Config;
  orm: Orm;
  model: ModelClient;
}

/** Every activity, built once per worker from its dependencies (Temporal's DI pattern). */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createCardEnrichmentActivities(deps),
    ...createSentenceActivities(deps),
    ...createAudioActivities(deps),
    ...createHousekeepingActivities(deps),
    ...createFsrsOptimisationActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
