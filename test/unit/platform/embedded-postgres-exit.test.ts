import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const MODULE = new URL('../../../src/platform/embedded-postgres.ts', import.meta.url).href;

/** Runs `body` as an ES module in a fresh Node process that has imported our embedded-postgres module; resolves with its exit code. */
function exitCodeAfterImport(body: string): Promise<number | null> {
  const script = `await import(${JSON.stringify(MODULE)});\n${body}`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], { cwd: repoRoot, stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  });
}

/**
 * embedded-postgres hooks process events when it is imported (async-exit-hook): `beforeExit` ends
 * in process.exit(0), a signal in its own shutdown and exit code. Our module takes the process back.
 */
describe('importing src/platform/embedded-postgres.ts', () => {
  it('leaves the exit code a process set (a failed test run stays failed)', async () => {
    expect(await exitCodeAfterImport('process.exitCode = 3;')).toBe(3);
  }, 30_000);

  it('leaves SIGINT and SIGTERM to the host’s own ordered shutdown', async () => {
    const ownShutdown = `
      for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => setTimeout(() => process.exit(signal === 'SIGINT' ? 7 : 8), 300));
      setInterval(() => {}, 1000);`;
    expect(await exitCodeAfterImport(`${ownShutdown}\nprocess.kill(process.pid, 'SIGINT');`)).toBe(7);
    expect(await exitCodeAfterImport(`${ownShutdown}\nprocess.kill(process.pid, 'SIGTERM');`)).toBe(8);
  }, 30_000);
});
