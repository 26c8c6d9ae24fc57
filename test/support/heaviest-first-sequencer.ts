import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { TestSequencer, TestSpecification, Vitest } from 'vitest/node';

/** A file's seconds, by its path from the repository's root. */
type Costs = Record<string, number>;

/** The table checked in beside this file, rewritten by `sh bin/with-toolchain.sh node test/support/file-costs.ts`. */
export const COSTS_TABLE = 'test/support/file-costs.json';
/** Each file's seconds in the last run of this checkout, hooks included (slowest-files-reporter.ts writes it). */
export const FILE_DURATIONS = 'test-results/file-durations.json';

/** Each file's seconds in the last run of this checkout (only the files it ran). */
export function lastRunCosts(root: string): Costs {
  const file = path.join(root, FILE_DURATIONS);
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Costs;
  } catch {
    return {}; // a run cut short leaves it half-written: the table still knows
  }
}

/** A file nobody has timed yet: about a second per kilobyte of test, as our integration files cost. */
const guessedCost = (file: string) => statSync(file).size / 1000;

/**
 * Runs the heaviest files first, so that the long ones (export-scale, kills, chaos, api-crash,
 * schemathesis, the browser files) start at once and the end of a run is many short files spread
 * over every worker, not one long file on one core. A file's cost is its time in the last run of
 * this checkout, else in the checked-in table (measured on a CI run), else guessed from its size.
 *
 * Vitest keeps a worker's module graph for the next file only when that file is of the same
 * project: the integration files are spread by cost, and each other project's files run as one
 * block, placed where its heaviest file falls (the isolated files in the middle, the unit files,
 * all short, near the end).
 */
export default class HeaviestFirstSequencer implements TestSequencer {
  private readonly root: string;
  constructor(ctx: Vitest) {
    this.root = ctx.config.root;
  }

  shard(files: TestSpecification[]): TestSpecification[] {
    return files;
  }

  sort(files: TestSpecification[]): TestSpecification[] {
    const table = JSON.parse(readFileSync(path.join(this.root, COSTS_TABLE), 'utf8')) as Costs;
    const costs: Costs = { ...table, ...lastRunCosts(this.root) };
    const cost = (spec: TestSpecification) => costs[path.relative(this.root, spec.moduleId)] ?? guessedCost(spec.moduleId);
    const heaviestFirst = [...files].sort((a, b) => cost(b) - cost(a));
    const byProject = Map.groupBy(heaviestFirst, (spec) => spec.project);
    const spread = [...byProject.entries()].sort(([, a], [, b]) => b.length - a.length)[0]?.[0];
    const order = heaviestFirst.flatMap((spec, index) => {
      if (spec.project === spread) return [spec];
      const isProjectsHeaviest = heaviestFirst.findIndex((other) => other.project === spec.project) === index;
      return isProjectsHeaviest ? byProject.get(spec.project)! : [];
    });
    const groupOrder = (spec: TestSpecification) => spec.project.config.sequence.groupOrder;
    return order.sort((a, b) => groupOrder(a) - groupOrder(b));
  }
}
