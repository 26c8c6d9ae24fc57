import { defineConfig } from 'vitest/config';
import HeaviestFirstSequencer from './test/support/heaviest-first-sequencer.ts';
import { DAY_SENSITIVE_FILES, ISOLATED_FILES } from './test/support/test-files.ts';

const integration = {
  // Each starts once per run, shared by every project that lists it, and only when a chosen file needs it.
  globalSetup: ['test/support/global-setup.ts', 'test/support/browser-server.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
  pool: 'forks' as const,
};

// The projects run together, heaviest file first (test/support/heaviest-first-sequencer.ts): pure
// unit tests with no infrastructure; integration tests sharing one real PostgreSQL and one real
// Temporal dev server started by the global setup, only when an integration file runs. Both load the
// module graph once per worker (`isolate: false`); the few files that install process-wide state run
// each in a process of their own (test/support/test-files.ts), and so do the day-change runs, whose
// clock is faked for the whole process.
export default defineConfig({
  test: {
    reporters: ['default', ['json', { outputFile: 'test-results/results.json' }], './test/support/slowest-files-reporter.ts'],
    sequence: { sequencer: HeaviestFirstSequencer },
    // One more worker than cores: the integration files mostly wait on servers, timers and child processes
    // (fresh-clone runs: 702 s with two workers; 609 s with three, 853 s of CPU on two cores).
    maxWorkers: 3,
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
      // The files whose answer depends on the learner's day, again with the clock just before and just after
      // 4 am in a far zone (test/support/learner-clock.ts).
      ...(['03:59:00', '04:00:01'] as const).map((at) => ({
        test: {
          ...integration,
          name: `day-change ${at}`,
          include: DAY_SENSITIVE_FILES,
          setupFiles: ['test/support/day-change-setup.ts'],
          env: { LCS_DAY_CHANGE_AT: at },
        },
      })),
    ],
  },
});
