import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { freePort } from '../../src/platform/free-port.ts';
import { waitForHttp } from '../support/processes.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The real local inference server (`npm run local-model`): its OpenAI-compatible base URL and model name. */
    localModel: { baseUrl: string; model: string };
  }
}

/** Its first start builds llama.cpp from source (tools/local-model/serve.sh): minutes on 2 cores, longer under load. */
const FIRST_START_MS = 40 * 60_000;
const MODEL = 'gemma3-270m';

/** Global setup of `npm run test:local-model`: the server `npm run local-model` starts, on a free port, stopped after the run. */
export default async function setup(project: TestProject) {
  const port = await freePort();
  const script = fileURLToPath(new URL('../../tools/local-model/serve.sh', import.meta.url));
  // Its own process group (the shell execs Python), stopped whole at the end. Its log shows a first build's progress.
  const child = spawn('sh', [script, '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  child.stderr.pipe(process.stderr);
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const kill = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, signal);
    await exited;
  };
  const baseUrl = `http://127.0.0.1:${port}/v1`;
  try {
    await waitForHttp(`${baseUrl}/models`, FIRST_START_MS, { child, output: () => output, exited, kill });
  } catch (error) {
    await kill();
    throw error;
  }
  project.provide('localModel', { baseUrl, model: MODEL });
  return () => kill();
}
