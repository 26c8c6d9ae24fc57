import { describe, expect, it } from 'vitest';
import { isAllowedOrigin, originOf } from '../../../src/domain/origins.ts';

describe('originOf', () => {
  it('normalises web origins as browsers send them', () => {
    expect(originOf('https://Capture.example:443/some/path')).toBe('https://capture.example');
    expect(originOf('http://localhost:3000/')).toBe('http://localhost:3000');
  });

  it('keeps browser-extension origins, which the URL standard calls opaque', () => {
    expect(new URL('chrome-extension://abcdefghijklmnop').origin).toBe('null');
    expect(originOf('chrome-extension://ABCDEFGHIJKLMNOP/')).toBe('chrome-extension://abcdefghijklmnop');
    expect(originOf('moz-extension://0d5a3f1e-8f0b-4c9e-9d55-2b1c6a7e4f10')).toBe('moz-extension://0d5a3f1e-8f0b-4c9e-9d55-2b1c6a7e4f10');
    expect(originOf('safari-web-extension://ABC-123')).toBe('safari-web-extension://abc-123');
  });

  it('refuses what has no origin a request could name', () => {
    for (const value of ['null', 'data:text/html,hi', 'file:///tmp/x.html', 'blob:https://a.example/1', 'javascript:alert(1)', 'chrome-extension://', 'nope']) {
      expect(originOf(value), value).toBeNull();
    }
  });
});

describe('isAllowedOrigin', () => {
  it('matches exactly and never lets the opaque "null" origin through', () => {
    const allowed = ['https://capture.example', 'chrome-extension://abcdefghijklmnop'];
    expect(isAllowedOrigin(allowed, 'chrome-extension://abcdefghijklmnop')).toBe(true);
    expect(isAllowedOrigin(allowed, 'https://capture.example.evil')).toBe(false);
    expect(isAllowedOrigin(['null'], 'null')).toBe(false);
  });
});
