import { defineConfig } from 'vitest/config';

/** Tests whose answer depends on which learner day "now" falls on: they take the learner's zone from test/support/learner-clock.ts. */
const DAY_SENSITIVE_FILES = [
  'test/integration/progress/progress.test.ts',
  'test/integration/library/encounters.test.ts',
  'test/integration/web/progress.test.ts',
];

// Two projects: pure unit tests run with no infrastructure; integration tests share one real
// PostgreSQL and one real Temporal dev server started by the global setup for the whole run.
export default defineConfig({
  test: {
    reporters: ['default', ['json', { outputFile: 'test-results/results.json' }]],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // Every core (the default leaves one idle): on two cores 44 s → 25 s, all before the integration group starts.
          maxWorkers: '100%',
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts', 'test/support/browser-server.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      // The files whose answer depends on the learner's day, again with the clock just before and just after
      // 4 am in a far zone (test/support/learner-clock.ts), on the integration project's PostgreSQL and Temporal.
      ...(['03:59:00', '04:00:01'] as const).map((at) => ({
        test: {
          name: `day-change ${at}`,
          include: DAY_SENSITIVE_FILES,
          globalSetup: ['test/support/day-change-global-setup.ts'],
          setupFiles: ['test/support/day-change-setup.ts'],
          env: { LCS_DAY_CHANGE_AT: at },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks' as const,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      })),
    ],
  },
});
