import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVICE_NODE_FLAGS } from '../../../src/platform/node-flags.ts';

const packageJson = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  scripts: Record<string, string>;
  config: { serviceNodeFlags: string };
};

describe('the service processes', () => {
  it.each(['start', 'api', 'worker'])('`npm run %s` runs its entry on Node itself with the service V8 flags, as the spawned processes do', (name) => {
    const command = packageJson.scripts[name]!;
    expect(command).toMatch(/ node \$npm_package_config_serviceNodeFlags src\/\S+\.ts$/);
    expect(command).not.toContain('tsx');
  });

  it('hands Node the same flags through npm as the spawned processes get, and Node takes them', () => {
    expect(SERVICE_NODE_FLAGS).toEqual(
      expect.arrayContaining([expect.stringMatching(/^--max-semi-space-size=\d+$/), expect.stringMatching(/^--heap-growing-percent=\d+$/)]),
    );
    // As npm runs a script: the config value in the environment, split into words by the shell.
    const run = spawnSync('sh', ['-c', `exec "${process.execPath}" $npm_package_config_serviceNodeFlags -p 'JSON.stringify(process.execArgv)'`], {
      env: { ...process.env, npm_package_config_serviceNodeFlags: packageJson.config.serviceNodeFlags },
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual([...SERVICE_NODE_FLAGS, '-p', 'JSON.stringify(process.execArgv)']);
  });
});
