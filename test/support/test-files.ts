/**
 * Which test files need what, for vitest.config.ts and the global setup.
 *
 * Every other file shares its worker's module graph (`isolate: false`): it is imported once per
 * worker, not once per file. These install what a later file in the same process would see, so
 * each runs in a process of its own:
 * - test/integration/workflows/support.ts installs the Temporal Runtime with options of its own
 *   (quiet logs, no metrics): a later stack's `installTemporalRuntime` would then keep it, and
 *   GET /metrics would lack the worker's metrics (platform/metrics.test.ts reads them);
 * - platform/tracing.test.ts registers the global tracer provider: every later stack's worker
 *   would run its workflows with the tracing interceptors.
 */
export const ISOLATED_FILES = ['test/integration/workflows/*.test.ts', 'test/integration/platform/tracing.test.ts'];

/** Files that load the web app's or the extension's build (the browser files, and the pages' headers). */
export const USES_BUILDS = /\/test\/integration\/(web|extension)\/|\/test\/integration\/http\/security-headers\.test\.ts$/;

/** Files whose answer depends on which learner day "now" falls on: they take the learner's zone from learner-clock.ts. */
export const DAY_SENSITIVE_FILES = [
  'test/integration/progress/progress.test.ts',
  'test/integration/library/encounters.test.ts',
  'test/integration/web/progress.test.ts',
];
