import { linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { assertSafeTransport, configFile, saveConnection } from '../../../clients/lcs/config.ts';
import { CliError, EXIT } from '../../../clients/lcs/exit.ts';
import { connect } from '../../../clients/lcs/service.ts';

const connection = { url: 'https://lcs.example', token: 'lcp_secret' };
let home: string;
let savedHome: string | undefined;
beforeEach(() => {
  savedHome = process.env.HOME;
  home = mkdtempSync(join(tmpdir(), 'lcs-config-'));
  process.env.HOME = home;
  mkdirSync(join(home, '.config', 'lcs'), { recursive: true });
});
afterEach(() => {
  process.env.HOME = savedHome;
  rmSync(home, { recursive: true, force: true });
});

const mode = (path: string) => statSync(path).mode & 0o777;

describe('saveConnection: the token file', () => {
  it('is written with mode 0600 from the start, whatever the umask, and leaves no temp file', async () => {
    const old = process.umask(0);
    try {
      expect(await saveConnection(connection)).toBe(configFile());
    } finally {
      process.umask(old);
    }
    expect(mode(configFile())).toBe(0o600);
    expect(JSON.parse(readFileSync(configFile(), 'utf8'))).toEqual(connection);
    expect(readdirSync(join(home, '.config', 'lcs'))).toEqual(['config.json']);
  });

  it('replaces an older 0644 file instead of writing into it', async () => {
    writeFileSync(configFile(), '{}', { mode: 0o644 });
    await saveConnection(connection);
    expect(mode(configFile())).toBe(0o600);
  });

  it.each([
    ['symlink', symlinkSync],
    ['hard link', linkSync],
  ])('never writes through a %s: it is replaced, its target untouched', async (_kind, link) => {
    const victim = join(home, 'victim');
    writeFileSync(victim, 'do not touch', { mode: 0o644 });
    link(victim, configFile());
    await saveConnection(connection);
    expect(readFileSync(victim, 'utf8')).toBe('do not touch');
    expect(mode(victim)).toBe(0o644);
    expect(lstatSync(configFile()).isSymbolicLink()).toBe(false);
    expect(statSync(configFile()).nlink).toBe(1);
    expect(mode(configFile())).toBe(0o600);
  });
});

describe('assertSafeTransport: a token never travels in cleartext off this machine', () => {
  it.each([
    'https://lcs.example',
    'http://localhost:3000',
    'http://app.localhost',
    'http://127.0.0.1:3000',
    'http://127.0.0.2',
    'http://[::1]:3000',
    'http://[::ffff:127.0.0.1]',
  ])('allows %s', (url) => expect(() => assertSafeTransport(url, false)).not.toThrow());

  it.each(['http://example.test:3000', 'http://192.168.1.10', 'http://[2001:db8::1]', 'http://localhost.example.com', 'ftp://lcs.example', 'not a url'])(
    'refuses %s with a usage error that says why',
    (url) => {
      let error: unknown;
      try {
        assertSafeTransport(url, false);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(CliError);
      expect((error as CliError).exitCode).toBe(EXIT.usage);
      expect((error as CliError).message).toMatch(/cleartext|https:\/\/|not an http/);
    },
  );

  it('allows a non-loopback http:// address when told it is on purpose (--insecure, LCS_INSECURE=1)', () => {
    expect(() => assertSafeTransport('http://example.test:3000', true)).not.toThrow();
  });

  it('is checked before any request: connect() sends nothing to a cleartext address', () => {
    const fetch = vi.fn();
    expect(() => connect({ url: 'http://example.test:3000', token: 'lcp_secret' }, { rateLimitRetries: 0, fetch })).toThrow(CliError);
    expect(fetch).not.toHaveBeenCalled();
  });
});
