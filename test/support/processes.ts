import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, vi } from 'vitest';
import { SERVICE_NODE_FLAGS, serviceProcessEnv } from '../../src/platform/node-flags.ts';

export interface ServiceProcess {
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (or signal) once it has exited. */
  exited: Promise<number | string | null>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Runs one of the service's entry points (`src/...`) as a child process, configured only by
 * environment variables, as an operator would run it: `node <entry>`, Node stripping the types, as `npm run api` does
 * (not a wrapper CLI, which would fork a grandchild that a SIGKILL would orphan).
 */
export function spawnService(entry: string, env: Record<string, string>): ServiceProcess {
  const script = fileURLToPath(new URL(`../../${entry}`, import.meta.url));
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, script], {
    env: serviceProcessEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (d: Buffer) => {
    output = (output + d.toString()).slice(-200_000);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  return {
    child,
    output: () => output,
    exited,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** Polls `url` until it answers 200, or rejects after `timeoutMs` (or when `process` exits). */
export async function waitForHttp(url: string, timeoutMs: number, process?: ServiceProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void process?.exited.then(() => {
    exited = true;
  });
  for (;;) {
    if (exited) throw new Error(`the process exited before ${url} answered:\n${process!.output().slice(-3000)}`);
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(2_000) })).status === 200) return;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms${process ? `:\n${process.output().slice(-3000)}` : ''}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * A worker (and its outbox relay) in its own process (test/support/worker-process.ts), configured by `env` as the real worker
 * is, plus WORKFLOW_BUNDLE_PATH; resolves once it polls its task queue.
 */
export async function spawnWorkerProcess(env: Record<string, string>): Promise<ServiceProcess> {
  const worker = spawnService('test/support/worker-process.ts', env);
  await vi.waitFor(
    () => {
      if (worker.child.exitCode !== null || worker.child.signalCode !== null) throw new Error(`the worker exited:\n${worker.output().slice(-3000)}`);
      expect(worker.output()).toContain('worker-ready');
    },
    { timeout: 60_000, interval: 100 },
  );
  return worker;
}
