import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cachedWorkflowBundle } from '../../../src/worker/worker.ts';

const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'lcs-bundle-cache-'));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

it('a worker start bundles the workflows once, keeps the bundle by a hash of the sources, and later starts read it', async () => {
  const first = await cachedWorkflowBundle(cacheDir);
  const kept = readdirSync(path.join(cacheDir, 'workflow-bundles'));
  expect(kept).toHaveLength(1);
  expect(kept[0]).toMatch(/^[0-9a-f]{32}\.js$/);
  expect(first.code).toContain('cardEnrichment');

  const second = await cachedWorkflowBundle(cacheDir);
  expect(second.code).toBe(first.code);
  expect(readdirSync(path.join(cacheDir, 'workflow-bundles'))).toEqual(kept);
}, 120_000);
