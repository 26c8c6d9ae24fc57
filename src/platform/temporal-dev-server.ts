import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { SEARCH_ATTRIBUTES } from '../workflows/constants.ts';
import { freePort, waitForPort } from './free-port.ts';

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
  cliPath: string;
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

  const child = spawn(options.cliPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const log = options.log ?? (() => {});
  child.stdout.on('data', (d: Buffer) => log(d.toString()));
  child.stderr.on('data', (d: Buffer) => log(d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const early = exited.then(() => { throw new Error(`temporal dev server exited during start-up (code ${child.exitCode})`); });
  await Promise.race([waitForPort('127.0.0.1', port, 60_000), early]);
  early.catch(() => {});

  return {
    address: `127.0.0.1:${port}`,
    uiUrl: options.uiPort === null ? null : `http://localhost:${args[args.indexOf('--ui-port') + 1]}`,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
