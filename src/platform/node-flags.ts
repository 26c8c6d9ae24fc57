/**
 * V8 flags every service process runs with (`npm start`, `npm run api`, `npm run worker`, and the
 * processes that tests, the bench and the chaos run spawn).
 *
 * `--max-semi-space-size=16`: left to itself V8 sizes the young generation by the machine's memory
 * (up to 64 MB per semi-space here), and under a capture load the API's resident set grew from
 * 200 MB at rest to 322 MB of mostly empty young space. Capped at 16 MB it peaked at 230 MB, with
 * the same acknowledgements per second (`npm run bench`).
 */
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=16'] as const;
