/**
 * V8 flags every service process runs with (`npm start`, `npm run api`, `npm run worker`, and the
 * processes that tests, the bench and the chaos run spawn).
 *
 * Left to itself V8 sizes the heap for a 24 GB machine: under the bench's loads the API's
 * resident set grew from 200 MB at rest to 322–390 MB, most of it heap that was allocated but
 * not live (207 MB of heap for 89 MB in use). Measured in `npm run bench`, same machine, back to
 * back (API peak RSS; floor req/s, cached page translations req/s, GET /api/me req/s):
 * - defaults: 322 MB after a capture load alone;
 * - `--max-semi-space-size=16` (young generation up to 2 × 16 MB instead of 2 × 64 MB):
 *   230 MB after the capture load, 390 MB after page translations; 1,391, 484, 1,773;
 * - and `--heap-growing-percent=25` (the old generation grows by a quarter of what is live
 *   instead of up to 4×): 236 MB through every load phase; 1,542, 499, 1,943 (no slower);
 * - `--optimize-for-size` instead: 184 MB, but 30 % fewer requests per second.
 */
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=16', '--heap-growing-percent=25'] as const;
