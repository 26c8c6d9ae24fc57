import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createOrm, migrate } from '../../src/db/orm.ts';
import { startEmbeddedPostgres } from '../../src/platform/embedded-postgres.ts';
import { startTemporalDevServer } from '../../src/platform/temporal-dev-server.ts';
import { ensureWebBuild } from '../../src/platform/web-build.ts';
import { ensureExtensionBuild } from '../../extension/build.ts';
import { cachedWorkflowBundle } from '../../src/worker/worker.ts';

export interface Infra {
  databaseUrl: string;
  temporalAddress: string;
  workflowBundlePath: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    infra: Infra;
  }
}

/**
 * Once per test run: a real PostgreSQL (migrated), a real Temporal dev server, the workflow
 * bundle, the web app's build and the browser extension's. Test files share them and isolate themselves by user and by task queue.
 */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lcs-test-'));
  // Private (0700), as `mktemp -d` makes it: startEmbeddedPostgres opens it to PostgreSQL's OS user when run as root.
  const starting = { db: startEmbeddedPostgres({ dataDir: dir }), temporal: startTemporalDevServer({ uiPort: null }) };
  let db: Awaited<typeof starting.db>, temporal: Awaited<typeof starting.temporal>, bundle: Awaited<ReturnType<typeof cachedWorkflowBundle>>;
  try {
    [db, temporal, bundle] = await Promise.all([starting.db, starting.temporal, cachedWorkflowBundle(), ensureWebBuild(), ensureExtensionBuild()]);
  } catch (error) {
    // Stop whatever did start, so a failed setup leaves no servers behind.
    await Promise.allSettled([starting.db.then((s) => s.stop()), starting.temporal.then((s) => s.stop())]);
    throw error;
  }
  const orm = await createOrm(db.url);
  await migrate(orm);
  await orm.close();
  const workflowBundlePath = path.join(dir, 'workflow-bundle.js');
  writeFileSync(workflowBundlePath, bundle.code);
  project.provide('infra', { databaseUrl: db.url, temporalAddress: temporal.address, workflowBundlePath });

  return async () => {
    await temporal.stop();
    await db.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
