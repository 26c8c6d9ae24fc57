import { defineConfig } from 'vitest/config';

// `npm run test:local-model`: test/local-model/local-model.test.ts against a real local inference server, on the
// suite's PostgreSQL and Temporal set-up. Its own run, not a project of vitest.config.ts: `npm test` would take
// minutes of CPU more on CI's 2 cores.
export default defineConfig({
  test: {
    include: ['test/local-model/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts', 'test/local-model/server-setup.ts'],
    // 50 captures one model call at a time, seconds each.
    testTimeout: 30 * 60_000,
    // The first run builds llama.cpp (tools/local-model/serve.sh).
    hookTimeout: 45 * 60_000,
    pool: 'forks',
  },
});
