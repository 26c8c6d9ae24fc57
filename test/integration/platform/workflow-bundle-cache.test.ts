import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cachedWorkflowBundle } from '../../../src/worker/worker.ts';

const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'lcs-bundle-cache-'));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

it('a worker start bundles the workflows once, keeps it by a hash of the sources beside the 3 newest earlier ones, and later starts read it', async () => {
  // What earlier sources (upgrades) left: the higher the number, the newer.
  const bundles = path.join(cacheDir, 'workflow-bundles');
  mkdirSync(bundles);
  const earlier = Array.from({ length: 6 }, (_, i) => `${String(i).repeat(32)}.js`);
  earlier.forEach((name, i) => {
    writeFileSync(path.join(bundles, name), '// an earlier version');
    utimesSync(path.join(bundles, name), 1_000_000 + i, 1_000_000 + i);
  });

  const first = await cachedWorkflowBundle(cacheDir);
  expect(first.code).toContain('cardEnrichment');
  // One byte a character in V8's heap, for as long as a worker runs: no character past U+00FF.
  expect(first.code).not.toMatch(/[\u0100-\uffff]/);
  // The inline source map the SDK requires keeps what maps a stack trace, not the sources' text.
  const map = JSON.parse(Buffer.from(first.code.slice(first.code.lastIndexOf('base64,') + 'base64,'.length), 'base64').toString()) as Record<string, unknown>;
  expect(map).not.toHaveProperty('sourcesContent');
  expect(map.sources).toContainEqual(expect.stringMatching(/src\/workflows\/card-enrichment\.ts$/));
  expect(String(map.mappings).length).toBeGreaterThan(10_000);
  const kept = readdirSync(bundles);
  const made = kept.filter((name) => !earlier.includes(name));
  expect(made).toHaveLength(1);
  expect(made[0]).toMatch(/^[0-9a-f]{32}\.js$/);
  expect(kept.filter((name) => earlier.includes(name)).sort()).toEqual(earlier.slice(3));

  const second = await cachedWorkflowBundle(cacheDir);
  expect(second.code).toBe(first.code);
  expect(readdirSync(bundles)).toEqual(kept);
}, 120_000);
