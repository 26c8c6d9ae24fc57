/**
 * Where a run of `lcs` reads and writes: its environment, directory, stdin, stdout and stderr.
 * The binary runs with the process's own (`processIo`); `run` (program.ts) can be given others, so
 * that many runs share one process (the tests) without touching its globals. Every command reads
 * them through `io()`, the one ambient value, as it read `process` before.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { homedir } from 'node:os';
import { resolve } from 'node:path';

export interface Io {
  env: Record<string, string | undefined>;
  cwd: string;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

export const processIo = (): Io => ({ env: process.env, cwd: process.cwd(), stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });

/** Ends the run with `code` (what `process.exit` did when every run had a process of its own). */
class Exit extends Error {
  readonly code: number;
  constructor(code: number) {
    super(`exit ${code}`);
    this.code = code;
  }
}

interface Running {
  io: Io;
  exitCode: number;
}

const running = new AsyncLocalStorage<Running>();

/** Runs `body` with `io` as every command's; its exit code (an `Exit` thrown, else `setExitCode`'s, else 0). */
export async function withIo(io: Io, body: () => Promise<void>): Promise<number> {
  const state: Running = { io, exitCode: 0 };
  return running.run(state, async () => {
    try {
      await body();
      return state.exitCode;
    } catch (error) {
      if (error instanceof Exit) return error.code;
      throw error;
    }
  });
}

export const io = (): Io => running.getStore()?.io ?? processIo();

/** The exit code the run ends with unless something ends it earlier (was `process.exitCode = …`). */
export function setExitCode(code: number): void {
  const state = running.getStore();
  if (state) state.exitCode = code;
  else process.exitCode = code;
}

export const exit = (code: number): never => {
  throw new Exit(code);
};

/** A line on stdout, as `console.log` wrote it. */
export const print = (text: string): void => void io().stdout.write(`${text}\n`);
/** A line on stderr, as `console.error` wrote it. */
export const printError = (text: string): void => void io().stderr.write(`${text}\n`);

/** The run's home folder (HOME, as `os.homedir()` reads it first). */
export const home = (): string => io().env.HOME || homedir();

/** A path the user typed, from the run's directory. */
export const fromCwd = (path: string): string => resolve(io().cwd, path);
