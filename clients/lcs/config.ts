/**
 * Where `lcs` finds the service and its token: LCS_URL and LCS_TOKEN from the environment win;
 * otherwise what `lcs login` stored in ~/.config/lcs/config.json (mode 0600: it holds a secret).
 */
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export const DEFAULT_URL = 'http://localhost:3000';

export interface Connection {
  url: string;
  token: string;
}

export const configFile = () => join(homedir(), '.config', 'lcs', 'config.json');

async function stored(): Promise<Partial<Connection>> {
  try {
    return JSON.parse(await readFile(configFile(), 'utf8')) as Partial<Connection>;
  } catch {
    return {};
  }
}

/** The connection to use, or null without a token (the caller says how to get one). */
export async function resolveConnection(env = process.env): Promise<Connection | null> {
  const file = await stored();
  const url = env.LCS_URL || file.url || DEFAULT_URL;
  const token = env.LCS_TOKEN || file.token;
  return token ? { url, token } : null;
}

export async function saveConnection(connection: Connection): Promise<string> {
  const file = configFile();
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${JSON.stringify(connection, null, 2)}\n`, { mode: 0o600 });
  // writeFile's mode applies only to a new file; an older file keeps its own otherwise.
  await chmod(file, 0o600);
  return file;
}

export async function removeConnection(): Promise<boolean> {
  try {
    await rm(configFile());
    return true;
  } catch {
    return false;
  }
}
