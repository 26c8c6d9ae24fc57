/**
 * Where `lcs` finds the service and its token: LCS_URL and LCS_TOKEN from the environment win;
 * otherwise what `lcs login` stored in ~/.config/lcs/config.json (mode 0600: it holds a secret).
 */
import { randomBytes } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { home, io } from './io.ts';
import { CliError, EXIT } from './exit.ts';

export const DEFAULT_URL = 'http://localhost:3000';

export interface Connection {
  url: string;
  token: string;
}

export const configFile = () => join(home(), '.config', 'lcs', 'config.json');

async function stored(): Promise<Partial<Connection>> {
  try {
    return JSON.parse(await readFile(configFile(), 'utf8')) as Partial<Connection>;
  } catch {
    return {};
  }
}

/** The connection to use, or null without a token (the caller says how to get one). */
export async function resolveConnection(env = io().env): Promise<Connection | null> {
  const file = await stored();
  const url = env.LCS_URL || file.url || DEFAULT_URL;
  const token = env.LCS_TOKEN || file.token;
  return token ? { url, token } : null;
}

/**
 * Stores the connection so that the token is never readable by others, not even for a moment: a
 * new file beside the config (O_EXCL, so never through a link planted at its name), mode 0600
 * before a byte is written, synced, then renamed over the config. The rename replaces a symlink or
 * a hard link at config.json instead of writing through it into another file.
 */
export async function saveConnection(connection: Connection): Promise<string> {
  const file = configFile();
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const temp = join(dirname(file), `.config.json.${process.pid}.${randomBytes(6).toString('hex')}`);
  try {
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.chmod(0o600); // the umask may have taken bits away; never adds any
      await handle.writeFile(`${JSON.stringify(connection, null, 2)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
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

/** `--insecure` (the CLI sets it) or LCS_INSECURE=1 (an MCP client's configuration): cleartext on purpose. */
export const insecureAllowed = (env = io().env) => env.LCS_INSECURE === '1';

/** This machine's own addresses (W3C Secure Contexts, "potentially trustworthy"); IPv4-mapped IPv6 included. */
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const family = isIP(host);
  return family !== 0 && loopback.check(host, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The token is a bearer secret: over `http://` anyone on the path can read it and act as the
 * learner. Only https://, or http:// to this machine itself, unless the caller says so on purpose.
 */
export function assertSafeTransport(url: string, insecure: boolean): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(`The service address ${JSON.stringify(url)} is not a URL: give one like https://lcs.example or http://localhost:3000.`, EXIT.usage);
  }
  if (parsed.protocol === 'https:') return;
  if (parsed.protocol !== 'http:') throw new CliError(`The service address ${url} is not an http:// or https:// address.`, EXIT.usage);
  if (insecure || isLoopback(parsed.hostname)) return;
  throw new CliError(
    `Refusing to send your token to ${parsed.origin} in cleartext: anyone on the network path could read it and use your account. ` +
      'Use https://, or pass --insecure (LCS_INSECURE=1 for the MCP server) if this network is private.',
    EXIT.usage,
  );
}
