import packageJson from '../../package.json' with { type: 'json' };

/**
 * V8 flags every service process runs with (`npm start`, `npm run api`, `npm run worker`, and the
 * processes that tests, the bench and the chaos run spawn). Written once, in package.json's
 * `config.serviceNodeFlags`: npm hands it to those scripts as `$npm_package_config_serviceNodeFlags`.
 *
 * Left to itself V8 sizes the heap for the machine, not for what a service process keeps live:
 * under load the API's resident set grew to several times its live heap, most of it allocated
 * and unused. So the young generation is capped (`--max-semi-space-size`) and the old one grows
 * by a quarter of what is live instead of up to 4× (`--heap-growing-percent`), at no cost in
 * requests per second; `--optimize-for-size` saved more memory but cost throughput. The
 * measurements: docs/performance.md, "V8 heap flags".
 */
export const SERVICE_NODE_FLAGS: readonly string[] = packageJson.config.serviceNodeFlags.split(' ');
