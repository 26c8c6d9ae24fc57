import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SEARCH_ATTRIBUTES } from '../workflows/constants.ts';
import { freePort, waitForPort } from './free-port.ts';

/** TEMPORAL_CLI_PATH, else whatever temporal/ensure-cli.sh finds or builds. */
export function resolveTemporalCli(): string {
  if (process.env.TEMPORAL_CLI_PATH) return process.env.TEMPORAL_CLI_PATH;
  const script = fileURLToPath(new URL('../../temporal/ensure-cli.sh', import.meta.url));
  return execFileSync('sh', [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
}

export interface DevServer {
  address: string;
  uiUrl: string | null;
  stop(): Promise<void>;
}

/**
 * Starts `temporal server start-dev`: a real single-process Temporal server with SQLite
 * persistence (when `dataDir` is given), our custom search attributes registered, and the Web UI.
 */
export async function startTemporalDevServer(options: {
  cliPath?: string;
  dataDir?: string;
  port?: number;
  uiPort?: number | null;
  log?: (line: string) => void;
}): Promise<DevServer> {
  const port = options.port ?? (await freePort());
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--log-level', 'warn', '--namespace', 'default'];
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    args.push('--db-filename', path.join(options.dataDir, 'temporal.sqlite'));
  }
  if (options.uiPort === null) args.push('--headless');
  else args.push('--ui-port', String(options.uiPort ?? (await freePort())));
  for (const [name, type] of Object.entries(SEARCH_ATTRIBUTES)) args.push('--search-attribute', `${name}=${type}`);

  const child = spawn(options.cliPath ?? resolveTemporalCli(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const log = options.log ?? (() => {});
  let recent = '';
  const collect = (d: Buffer) => {
    recent = (recent + d.toString()).slice(-2000);
    log(d.toString());
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const early = exited.then(() => {
    throw new Error(`temporal dev server exited during start-up (code ${child.exitCode}); is port ${port} or the UI port taken?\n${recent}`);
  });
  await Promise.race([waitForPort('127.0.0.1', port, 60_000), early]);
  early.catch(() => {});

  // If the parent dies without stopping us (a crash, a test runner torn down), take the server along.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  return {
    address: `127.0.0.1:${port}`,
    uiUrl: options.uiPort === null ? null : `http://localhost:${args[args.indexOf('--ui-port') + 1]}`,
    async stop() {
      process.off('exit', killOnExit);
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
