import { defineConfig } from 'vitest/config';

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
    ],
  },
});
