import packageJson from '../../package.json' with { type: 'json' };

/**
 * V8 flags every service process runs with (`npm start`, `npm run api`, `npm run worker`, all
 * through bin/start.sh, and the processes that tests, the bench and the chaos run spawn). Written
 * once, in package.json's `config.serviceNodeFlags`.
 *
 * Left to itself V8 sizes the heap for the machine, not for what a service process keeps live:
 * under load the API's resident set grew to several times its live heap, most of it allocated
 * and unused. So the young generation is capped (`--max-semi-space-size`) and the old one grows
 * by a quarter of what is live instead of up to 4× (`--heap-growing-percent`), at no cost in
 * requests per second; `--optimize-for-size` saved more memory but cost throughput. Code that only
 * start-up ran is dropped after two full collections instead of six, its baseline code too
 * (`--flush-baseline-code --bytecode-old-age=2`): an idle process keeps 6 MB less, and a function
 * run again is compiled again from its source. The measurements: docs/performance.md, "V8 heap flags".
 */
export const SERVICE_NODE_FLAGS: readonly string[] = packageJson.config.serviceNodeFlags.split(' ');

/**
 * The environment every service process starts with, under whatever its caller set (which wins),
 * written once in package.json's `config.serviceEnv`. It is glibc's malloc, held to a small
 * server's measure: two arenas instead of one per thread, and glibc's own 128 KB thresholds kept
 * fixed, so a large block is mapped and given back when freed instead of the thresholds rising
 * with each large free until such blocks stay in the heap for good (docs/performance.md,
 * "Idle memory").
 */
export const SERVICE_ENV: Readonly<Record<string, string>> = Object.fromEntries(
  packageJson.config.serviceEnv.split(' ').map((assignment) => {
    const at = assignment.indexOf('=');
    return [assignment.slice(0, at), assignment.slice(at + 1)];
  }),
);

/** A service process's environment: SERVICE_ENV under this process's own, under `overrides`; the one precedence every spawn uses. */
export function serviceProcessEnv(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...SERVICE_ENV, ...process.env, ...overrides };
}
