import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { generateSessionId, generateToken, hashSecret, parseBearer, TOKEN_LENGTH, tokenLooksValid } from '../../../src/domain/tokens.ts';
import { TOKEN_PREFIX } from '../../../src/domain/limits.ts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Replaces the character at `index` with a different base62 character. */
function mutate(token: string, index: number, shift = 1): string {
  const next = BASE62[(BASE62.indexOf(token[index]!) + shift) % 62]!;
  return token.slice(0, index) + next + token.slice(index + 1);
}

describe('generateToken', () => {
  it('has the prefix, a fixed length and only base62 after the prefix', () => {
    for (let i = 0; i < 200; i++) {
      const token = generateToken();
      expect(token.startsWith('lcp_')).toBe(true);
      expect(token).toHaveLength(53); // 4 prefix + 43 random + 6 checksum
      expect(token).toMatch(/^lcp_[0-9A-Za-z]{49}$/);
    }
    expect(TOKEN_PREFIX).toBe('lcp_');
    expect(TOKEN_LENGTH).toBe(53);
  });

  it('ends with the base62 CRC32 of the random part', () => {
    const token = generateToken();
    const random = token.slice(4, 47);
    let crc = BigInt(crc32(random));
    let expected = '';
    for (let i = 0; i < 6; i++) {
      expected = BASE62[Number(crc % 62n)] + expected;
      crc /= 62n;
    }
    expect(token.slice(47)).toBe(expected);
  });

  it('carries 32 random bytes: the random part decodes below 2^256', () => {
    const token = generateToken();
    const value = [...token.slice(4, 47)].reduce((acc, ch) => acc * 62n + BigInt(BASE62.indexOf(ch)), 0n);
    expect(value < 2n ** 256n).toBe(true);
  });

  it('is unique across 1000 tokens, including their random parts', () => {
    const tokens = Array.from({ length: 1000 }, generateToken);
    expect(new Set(tokens).size).toBe(1000);
    expect(new Set(tokens.map((t) => t.slice(4, 47))).size).toBe(1000);
  });

  it('uses the whole alphabet (no stuck characters)', () => {
    const seen = new Set(Array.from({ length: 200 }, generateToken).flatMap((t) => [...t.slice(4, 47)]));
    expect(seen.size).toBe(62);
  });
});

describe('tokenLooksValid', () => {
  it('accepts generated tokens', () => {
    for (let i = 0; i < 200; i++) expect(tokenLooksValid(generateToken())).toBe(true);
  });

  it('detects any single changed character in the random part or the checksum', () => {
    const token = generateToken();
    for (let index = 4; index < token.length; index++) {
      for (const shift of [1, 31, 61]) {
        expect(tokenLooksValid(mutate(token, index, shift)), `index ${index} shift ${shift}`).toBe(false);
      }
    }
  });

  it('detects swapped adjacent characters', () => {
    const token = generateToken();
    for (let i = 4; i < 46; i++) {
      if (token[i] === token[i + 1]) continue;
      const swapped = token.slice(0, i) + token[i + 1] + token[i] + token.slice(i + 2);
      expect(tokenLooksValid(swapped), `swap at ${i}`).toBe(false);
    }
  });

  it('rejects a wrong or missing prefix', () => {
    const token = generateToken();
    const body = token.slice(4);
    for (const prefix of ['', 'LCP_', 'lcp-', 'lcx_', 'ghp_', 'lcp__']) {
      expect(tokenLooksValid(prefix + body), JSON.stringify(prefix)).toBe(false);
    }
  });

  it('rejects wrong lengths and characters', () => {
    const token = generateToken();
    expect(tokenLooksValid(token.slice(0, -1))).toBe(false);
    expect(tokenLooksValid(`${token}0`)).toBe(false);
    expect(tokenLooksValid(`${token.slice(0, 10)}-${token.slice(11)}`)).toBe(false);
    expect(tokenLooksValid(`${token.slice(0, 10)}é${token.slice(11)}`)).toBe(false);
    expect(tokenLooksValid(` ${token}`)).toBe(false);
    expect(tokenLooksValid(`${token}\n`)).toBe(false);
    expect(tokenLooksValid('')).toBe(false);
    expect(tokenLooksValid('lcp_')).toBe(false);
    expect(tokenLooksValid(`lcp_${'0'.repeat(49)}`)).toBe(false); // right shape, wrong checksum
  });

  it('rejects non-strings without throwing', () => {
    for (const value of [undefined, null, 42, {}, ['lcp_']]) {
      expect(tokenLooksValid(value as string)).toBe(false);
    }
  });

  it('rejects session ids', () => {
    expect(tokenLooksValid(generateSessionId())).toBe(false);
  });
});

describe('hashSecret', () => {
  it('is SHA-256 hex of the UTF-8 text', () => {
    expect(hashSecret('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashSecret('é')).toBe(createHash('sha256').update(Buffer.from('é', 'utf8')).digest('hex'));
  });

  it('is deterministic, 64 lowercase hex chars and distinct for distinct secrets', () => {
    const token = generateToken();
    expect(hashSecret(token)).toBe(hashSecret(token));
    expect(hashSecret(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashSecret(token)).not.toBe(hashSecret(mutate(token, 10)));
    expect(hashSecret(token)).not.toContain(token.slice(4, 47));
  });
});

describe('generateSessionId', () => {
  it('is 32 random bytes as base64url', () => {
    const id = generateSessionId();
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(id, 'base64url')).toHaveLength(32);
  });

  it('is unique across 1000 ids', () => {
    expect(new Set(Array.from({ length: 1000 }, generateSessionId)).size).toBe(1000);
  });
});

describe('parseBearer', () => {
  const token = generateToken();

  it.each([
    [`Bearer ${token}`, token],
    [`bearer ${token}`, token],
    [`BEARER ${token}`, token],
    [`BeArEr ${token}`, token],
    [`Bearer   ${token}`, token], // extra spaces after the scheme
    [`  Bearer ${token}  `, token], // surrounding whitespace
    ['Bearer abc', 'abc'], // shape is checked later, not here
    ['Bearer a-b.c_d~e+f/g==', 'a-b.c_d~e+f/g=='], // every b64token character
  ])('%j → %j', (header, expected) => {
    expect(parseBearer(header)).toBe(expected);
  });

  it.each([
    ['undefined', undefined],
    ['empty', ''],
    ['blank', '   '],
    ['scheme only', 'Bearer'],
    ['scheme and space', 'Bearer '],
    ['no space', `Bearer${token}`],
    ['tab separator', `Bearer\t${token}`],
    ['other scheme', `Basic ${token}`],
    ['token scheme', `Token ${token}`],
    ['scheme prefix lookalike', `Bearerx ${token}`],
    ['token without scheme', token],
    ['two credentials', `Bearer ${token} ${token}`],
    ['comma list', `Bearer ${token}, Bearer other`],
    ['padding in the middle', 'Bearer ab=c'],
    ['quoted', `Bearer "${token}"`],
    ['non-ASCII', 'Bearer tökén'],
    ['line break', `Bearer ${token}\nX-Other: 1`],
  ])('%s → null', (_name, header) => {
    expect(parseBearer(header)).toBeNull();
  });
});
