import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { FILE_DURATIONS } from './heaviest-first-sequencer.ts';

const SHOWN = 10;

/**
 * Ends a run with its ten slowest files and their seconds (each file's time is already on its
 * line above, from the default reporter): where to look first when the suite grows slow. It also
 * keeps each file's seconds, hooks included, for the sequencer (FILE_DURATIONS): the JSON report's
 * start and end leave out a file's beforeAll, where chaos.test.ts does all its work.
 */
export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const timed = testModules.map((module) => ({ module, ms: module.diagnostic().duration })).sort((a, b) => b.ms - a.ms);
    if (timed.length < 2) return;
    const seconds: Record<string, number> = {};
    for (const { module, ms } of timed) {
      const file = path.relative(module.project.config.root, module.moduleId);
      seconds[file] = Math.max(seconds[file] ?? 0, Math.round(ms / 100) / 10);
    }
    const root = timed[0]!.module.project.config.root;
    mkdirSync(path.join(root, path.dirname(FILE_DURATIONS)), { recursive: true });
    writeFileSync(path.join(root, FILE_DURATIONS), `${JSON.stringify(seconds, null, 2)}\n`);
    const lines = timed.slice(0, SHOWN).map(({ module, ms }) => {
      const file = path.relative(module.project.config.root, module.moduleId);
      return `${(ms / 1000).toFixed(1).padStart(7)} s  ${file} (${module.project.name})`;
    });
    process.stdout.write(`\nThe ${lines.length} slowest files:\n${lines.join('\n')}\n`);
  }
}
