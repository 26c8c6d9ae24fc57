import { describe, expect, it } from 'vitest';
import { unstorableTextPath } from '../../../src/http/plugins/text-guard.ts';

describe('unstorableTextPath', () => {
  it('names the first string holding U+0000 or an unpaired surrogate', () => {
    expect(unstorableTextPath({ a: 'fine', b: ['ok', 'bad\u0000'] })).toBe('b.1');
    expect(unstorableTextPath({ text: 'half \ud800' })).toBe('text');
    expect(unstorableTextPath({ text: 'fine' })).toBeNull();
  });

  it('does not walk bytes (a file body): they hold no strings, and walking them key by key costs memory in proportion to the file', () => {
    expect(unstorableTextPath(Buffer.alloc(1_000_000))).toBeNull();
    expect(unstorableTextPath({ bytes: new Uint8Array(16), buffer: new ArrayBuffer(16) })).toBeNull();
  });
});
