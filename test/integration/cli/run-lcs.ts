import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, expect } from 'vitest';
import { run } from '../../../clients/lcs/program.ts';

export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
export const lcsMain = join(repoRoot, 'clients/lcs/main.ts');
/** Resolved here: the child may run in a directory without node_modules. */
export const tsxLoader = import.meta.resolve('tsx');
const lcsLauncher = join(repoRoot, 'clients/lcs/lcs.sh');

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
 * Runs `lcs` with a given HOME, environment, directory and stdin (closed after it, as in a
 * script): in this process through its `run` entry, or, for the tests that prove the real binary,
 * as a user's shell would (`spawned`: this run's Node (24) with tsx on main.ts; `viaLauncher`: lcs.sh).
 */
export function runLcs(
  args: string[],
  options: { home: string; env?: Record<string, string | undefined>; stdin?: string; cwd?: string; viaLauncher?: boolean; spawned?: boolean },
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
  const cwd = options.cwd ?? repoRoot;
  if (options.viaLauncher || options.spawned) return runProcess(args, { ...options, env, cwd });
  return runInProcess(args, { env, cwd, stdin: options.stdin ?? '' });
}

/** Fifty-odd commands at a few milliseconds each, instead of a toolchain shell and a Node start (about a second) each. */
async function runInProcess(args: string[], options: { env: Record<string, string | undefined>; cwd: string; stdin: string }): Promise<LcsRun> {
  const stdout = new Collected();
  const stderr = new Collected();
  // Unset names are absent, as in a child's environment.
  const env = Object.fromEntries(Object.entries(options.env).filter(([, value]) => value !== undefined));
  const code = await run(args, { env, cwd: options.cwd, stdin: Readable.from([Buffer.from(options.stdin)]), stdout, stderr });
  return finished(code, stdout.text, stderr.text);
}

/** A stream that keeps what is written to it, as a pipe's reader would. */
class Collected extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

function runProcess(args: string[], options: { env: Record<string, string | undefined>; cwd: string; stdin?: string; viaLauncher?: boolean }): Promise<LcsRun> {
  const [command, commandArgs] = options.viaLauncher ? ['sh', [lcsLauncher]] : [process.execPath, ['--import', tsxLoader, lcsMain]];
  const child = spawn(command, [...commandArgs, ...args], { cwd: options.cwd, env: options.env });
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
    child.on('close', (code) => resolve(finished(code, stdout, stderr)));
  });
}

function finished(code: number | null, stdout: string, stderr: string): LcsRun {
  let json: unknown = null;
  try {
    json = JSON.parse(stdout);
  } catch {
    /* human output */
  }
  return { code, stdout, stderr, json };
}

/** Captures through `lcs capture` and waits (through `lcs show`) until the card is prepared; its id. */
export async function captureReady(text: string, options: Parameters<typeof runLcs>[1]): Promise<string> {
  const captured = await runLcs(['capture', text, '--json'], options);
  const cardId = captured.json.items[0].cardId as string;
  await expect.poll(async () => (await runLcs(['show', cardId, '--json'], options)).json.card.enrichmentStatus, { timeout: 20_000 }).toBe('ready');
  return cardId;
}
