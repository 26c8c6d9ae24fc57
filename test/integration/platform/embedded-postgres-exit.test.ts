import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startEmbeddedPostgres } from '../../../src/platform/embedded-postgres.ts';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const MODULE = new URL('../../../src/platform/embedded-postgres.ts', import.meta.url).href;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lcs-crash-db-'));
let postmaster: number | undefined;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

afterAll(() => {
  if (postmaster !== undefined && alive(postmaster)) process.kill(postmaster, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a host that crashes while its embedded PostgreSQL runs', () => {
  it('does not leave that PostgreSQL running on the data directory', async () => {
    // Starts PostgreSQL, says its pid, then dies of an uncaught exception: no host code stops it.
    const script = `
      const { startEmbeddedPostgres } = await import(${JSON.stringify(MODULE)});
      const db = await startEmbeddedPostgres({ dataDir: ${JSON.stringify(dataDir)} });
      console.log('postmaster ' + db.pid);
      setTimeout(() => { throw new Error('crash on purpose'); }, 100);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    postmaster = Number(/postmaster (\d+)/.exec(output)?.[1]);
    expect(postmaster, output).toBeGreaterThan(0);
    expect(code, output).toBe(1);
    await vi.waitFor(() => expect(alive(postmaster!)).toBe(false), { timeout: 15_000, interval: 100 });
  }, 60_000);
});

describe('stopping an embedded PostgreSQL that has exited already (a terminal’s Ctrl-C reached it first)', () => {
  it('returns at once instead of waiting for an exit that happened', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lcs-gone-db-'));
    try {
      const db = await startEmbeddedPostgres({ dataDir: dir });
      process.kill(db.pid, 'SIGINT');
      await db.exited;
      const outcome = await Promise.race([db.stop().then(() => 'stopped'), new Promise((r) => setTimeout(() => r('still waiting'), 10_000))]);
      expect(outcome).toBe('stopped');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
