import { defineConfig } from 'vitest/config';
import HeaviestFirstSequencer from './test/support/heaviest-first-sequencer.ts';
import { ISOLATED_FILES } from './test/support/test-files.ts';

const integration = {
  globalSetup: ['test/support/global-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
  pool: 'forks' as const,
};

// Three projects, run together, heaviest file first (test/support/heaviest-first-sequencer.ts):
// pure unit tests with no infrastructure; integration tests sharing one real PostgreSQL and one
// real Temporal dev server started by the global setup, only when an integration file runs. Both
// load the module graph once per worker (`isolate: false`); the few files that install
// process-wide state run each in a process of its own (test/support/test-files.ts).
export default defineConfig({
  test: {
    reporters: ['default', ['json', { outputFile: 'test-results/results.json' }], './test/support/slowest-files-reporter.ts'],
    sequence: { sequencer: HeaviestFirstSequencer },
    // Every core; the integration files mostly wait on servers and child processes.
    maxWorkers: 2,
    projects: [
      {
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false },
      },
      {
        test: { ...integration, name: 'integration', include: ['test/integration/**/*.test.ts'], exclude: ISOLATED_FILES, isolate: false },
      },
      {
        test: { ...integration, name: 'integration-isolated', include: ISOLATED_FILES },
      },
    ],
  },
});
