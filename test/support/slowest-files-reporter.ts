import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

const SHOWN = 10;

/**
 * Ends a run with its ten slowest files and their seconds (each file's time is already on its
 * line above, from the default reporter): where to look first when the suite grows slow.
 */
export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const timed = testModules.map((module) => ({ module, ms: module.diagnostic().duration })).sort((a, b) => b.ms - a.ms);
    if (timed.length < 2) return;
    const lines = timed.slice(0, SHOWN).map(({ module, ms }) => {
      const file = path.relative(module.project.config.root, module.moduleId);
      return `${(ms / 1000).toFixed(1).padStart(7)} s  ${file} (${module.project.name})`;
    });
    process.stdout.write(`\nThe ${lines.length} slowest files:\n${lines.join('\n')}\n`);
  }
}
