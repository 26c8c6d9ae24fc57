// Rewrites the sequencer's table of file costs (file-costs.json) from the last run's results:
// `npm test` (the whole suite, ideally on a quiet machine), then `sh bin/with-toolchain.sh node test/support/file-costs.ts`.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { COSTS_TABLE, lastRunCosts } from './heaviest-first-sequencer.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const costs = Object.entries(lastRunCosts(root))
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([file, seconds]) => [file, Math.round(seconds * 10) / 10]);
writeFileSync(path.join(root, COSTS_TABLE), `${JSON.stringify(Object.fromEntries(costs), null, 2)}\n`);
console.log(`${COSTS_TABLE}: ${costs.length} files`);
