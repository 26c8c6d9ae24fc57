import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startTemporalDevServer } from '../../src/platform/temporal-dev-server.ts';
import { ensureWebBuild } from '../../src/platform/web-build.ts';
import { ensureExtensionBuild } from '../../extension/build.ts';
import { cachedWorkflowBundle } from '../../src/worker/worker.ts';
import { startMigratedPostgres } from './migrated-cluster.ts';
import { USES_BUILDS } from './test-files.ts';

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

interface Running {
  infra: Infra;
  stop(): Promise<void>;
}

/**
 * Once per test run: a real PostgreSQL (migrated), a real Temporal dev server, the workflow
 * bundle, and the web app's and the extension's builds when a chosen file loads them. Test files
 * share them and isolate themselves by user and by task queue.
 */
async function start(files: readonly string[]): Promise<Running> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lcs-test-'));
  // Private (0700), as `mktemp -d` makes it: startEmbeddedPostgres opens it to PostgreSQL's OS user when run as root.
  const starting = { db: startMigratedPostgres({ dataDir: dir }), temporal: startTemporalDevServer({ uiPort: null }) };
  // One file run by hand needs no build unless it drives a browser: a build is the slowest step of a cold start.
  const builds = files.some((file) => USES_BUILDS.test(file)) ? [ensureWebBuild(), ensureExtensionBuild()] : [];
  let db: Awaited<typeof starting.db>, temporal: Awaited<typeof starting.temporal>, bundle: Awaited<ReturnType<typeof cachedWorkflowBundle>>;
  try {
    [db, temporal, bundle] = await Promise.all([starting.db, starting.temporal, cachedWorkflowBundle(), ...builds]);
  } catch (error) {
    // Stop whatever did start, so a failed setup leaves no servers behind.
    await Promise.allSettled([starting.db.then((s) => s.stop()), starting.temporal.then((s) => s.stop())]);
    throw error;
  }
  const workflowBundlePath = path.join(dir, 'workflow-bundle.js');
  writeFileSync(workflowBundlePath, bundle.code);
  return {
    infra: { databaseUrl: db.url, temporalAddress: temporal.address, workflowBundlePath },
    async stop() {
      await temporal.stop();
      await db.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Every integration project names this file; Vitest runs it once per project that has files to
 * run, in its own process. They share one start (kept on globalThis, as each project loads this
 * module afresh), and the last teardown stops it.
 */
const SHARED = Symbol.for('lcs.test-infra');
type Shared = { running: Promise<Running>; users: number };
const holder = globalThis as { [SHARED]?: Shared };

export default async function setup(project: TestProject) {
  const shared = (holder[SHARED] ??= { running: start(project.vitest.state.getPaths()), users: 0 });
  shared.users++;
  const running = await shared.running;
  project.provide('infra', running.infra);
  return async () => {
    if (--shared.users > 0) return;
    delete holder[SHARED];
    await running.stop();
  };
}
