/**
 * Personal access tokens and session ids.
 *
 * Token format: `lcp_` + 43 base62 chars (32 random bytes) + 6 base62 chars (CRC32 of those 43
 * chars). The prefix lets secret scanners recognise a leaked token; the checksum lets them (and
 * us) reject typos and look-alikes offline, before any database lookup.
 */
import { hash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { TOKEN_PREFIX } from './limits.ts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_BYTES = 32;
const RANDOM_CHARS = 43; // ceil(256 bits / log2(62)): every 32-byte value fits, left-padded
const CHECKSUM_CHARS = 6; // 62^6 > 2^32
export const TOKEN_LENGTH = TOKEN_PREFIX.length + RANDOM_CHARS + CHECKSUM_CHARS;

const TOKEN_SHAPE = new RegExp(`^${TOKEN_PREFIX}[0-9A-Za-z]{${RANDOM_CHARS + CHECKSUM_CHARS}}$`);

function toBase62(value: bigint, width: number): string {
  let out = '';
  while (value > 0n) {
    out = BASE62[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out.padStart(width, '0');
}

function checksum(randomPart: string): string {
  return toBase62(BigInt(crc32(randomPart)), CHECKSUM_CHARS);
}

export function generateToken(): string {
  const random = toBase62(BigInt(`0x${randomBytes(RANDOM_BYTES).toString('hex')}`), RANDOM_CHARS);
  return `${TOKEN_PREFIX}${random}${checksum(random)}`;
}

/** Offline check of prefix, charset, length and checksum. Says nothing about whether it exists. */
export function tokenLooksValid(token: string): boolean {
  if (typeof token !== 'string' || !TOKEN_SHAPE.test(token)) return false;
  const random = token.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + RANDOM_CHARS);
  return token.slice(TOKEN_PREFIX.length + RANDOM_CHARS) === checksum(random);
}

/**
 * What we store instead of a token or session id. A plain SHA-256 is right here, unlike for
 * passwords: the inputs carry 256 random bits, so there is nothing to brute-force and a slow KDF
 * would only slow down every authenticated request. Being deterministic, the hash is also the
 * lookup key.
 */
export function hashSecret(secret: string): string {
  return hash('sha256', secret);
}

export function generateSessionId(): string {
  return randomBytes(32).toString('base64url');
}

// RFC 6750 b64token after the scheme; the scheme name is case-insensitive (RFC 9110 §11.1).
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

/** The credential from `Authorization: Bearer <token>`, or null for any other or malformed header. */
export function parseBearer(header: string | undefined): string | null {
  if (typeof header !== 'string') return null;
  return BEARER.exec(header.trim())?.[1] ?? null;
}
