// `npm run chaos [-- --short | flags]`: the chaos run (chaos/README.md). First the service as separate
// processes under load and faults, then (full profile) `npm start` itself with its Temporal dev
// server and its database killed. Prints one table per run; exits 1 when a goal fails.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runNpmStart } from './npm-start.ts';
import { parseChaosOptions } from './options.ts';
import type { Report } from './report.ts';
import { runSeparateProcesses } from './scenario.ts';

const options = parseChaosOptions(process.argv.slice(2));
const dir = mkdtempSync(path.join(os.tmpdir(), 'lcs-chaos-'));
chmodSync(dir, 0o755); // PostgreSQL runs as an unprivileged user and must reach its data dir
const started = Date.now();
const log = (line: string) => console.log(`[chaos +${((Date.now() - started) / 1000).toFixed(1)}s] ${line}`);

const reports: Report[] = [];
let crashed = false;
try {
  if (options.processes) reports.push(await runSeparateProcesses(options, path.join(dir, 'processes'), log));
  if (options.npmStart) reports.push(await runNpmStart(options, path.join(dir, 'npm-start'), log));
} catch (error) {
  crashed = true;
  console.error('chaos run could not finish:', error);
}

for (const report of reports) console.log(`\n${report.lines.join('\n')}`);
const failed = reports.flatMap((r) => r.goals.filter((g) => !g.ok).map((g) => `${r.title}: ${g.name} = ${g.value}`));
console.log(failed.length === 0 && !crashed ? '\nAll goals met.' : `\nGoals failed:\n${failed.map((f) => `  - ${f}`).join('\n')}`);
if (options.keepDir || crashed) console.log(`Logs: ${dir}`);
else rmSync(dir, { recursive: true, force: true });
process.exit(failed.length === 0 && !crashed ? 0 : 1);
