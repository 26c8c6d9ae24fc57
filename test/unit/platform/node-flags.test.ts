import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVICE_NODE_FLAGS } from '../../../src/platform/node-flags.ts';

const scripts = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> }).scripts;

describe('the service processes', () => {
  it.each(['start', 'api', 'worker'])('`npm run %s` runs its entry on Node itself with the service V8 flags, as the spawned processes do', (name) => {
    const command = scripts[name]!;
    expect(command).toMatch(/ node (--\S+ )*src\/\S+\.ts$/);
    expect(command).not.toContain('tsx');
    for (const flag of SERVICE_NODE_FLAGS) expect(command).toContain(` ${flag} `);
  });
});
