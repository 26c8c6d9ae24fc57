import type { TestProject } from 'vitest/node';
import startInfra from './global-setup.ts';

/**
 * The day-change projects' global setup: the PostgreSQL and Temporal server another project of this
 * run already started (the integration project sets up first when both run), else its own.
 */
export default async function setup(project: TestProject) {
  const started = project.vitest.projects.filter((p) => p !== project).map((p) => p.getProvidedContext().infra);
  const infra = started.find((i) => i !== undefined);
  if (!infra) return startInfra(project);
  project.provide('infra', infra);
  return undefined;
}
