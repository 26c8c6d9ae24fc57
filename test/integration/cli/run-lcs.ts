import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect } from 'vitest';

export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
export const lcsMain = join(repoRoot, 'clients/lcs/main.ts');
/** Resolved here: the child may run in a directory without node_modules. */
export const tsxLoader = import.meta.resolve('tsx');
export const lcsLauncher = join(repoRoot, 'clients/lcs/lcs.sh');

export interface LcsRun {
  code: number | null;
  stdout: string;
  stderr: string;
  json: any;
}

/** A home of its own per test, so that `lcs login` never touches the real one; removed after the file. */
const homes: string[] = [];
export const tempHome = () => {
  const home = mkdtempSync(join(tmpdir(), 'lcs-home-'));
  homes.push(home);
  return home;
};
afterAll(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

/**
 * Runs `lcs` as a user's shell would: its own process, this run's Node (24) with tsx, a given
 * HOME and environment, and stdin when given (closed otherwise, as in a script).
 */
export function runLcs(
  args: string[],
  options: { home: string; env?: Record<string, string | undefined>; stdin?: string; cwd?: string; viaLauncher?: boolean },
): Promise<LcsRun> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    HOME: options.home,
    LCS_URL: undefined,
    LCS_TOKEN: undefined,
    // The launcher's toolchain cache stays the real one: a temp HOME would install Node 24 again.
    LCS_CACHE_DIR: process.env.LCS_CACHE_DIR ?? join(homedir(), '.cache/language-capture'),
    ...options.env,
  };
  const [command, commandArgs] = options.viaLauncher ? ['sh', [lcsLauncher]] : [process.execPath, ['--import', tsxLoader, lcsMain]];
  const child = spawn(command, [...commandArgs, ...args], { cwd: options.cwd ?? repoRoot, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  child.stdin.end(options.stdin ?? '');
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      let json: unknown = null;
      try {
        json = JSON.parse(stdout);
      } catch {
        /* human output */
      }
      resolve({ code, stdout, stderr, json });
    });
  });
}

/** Captures through `lcs capture` and waits (through `lcs show`) until the card is prepared; its id. */
export async function captureReady(text: string, options: Parameters<typeof runLcs>[1]): Promise<string> {
  const captured = await runLcs(['capture', text, '--json'], options);
  const cardId = captured.json.items[0].cardId as string;
  await expect.poll(async () => (await runLcs(['show', cardId, '--json'], options)).json.card.enrichmentStatus, { timeout: 20_000 }).toBe('ready');
  return cardId;
}
