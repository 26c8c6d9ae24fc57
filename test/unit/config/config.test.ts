import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';

describe('loadConfig', () => {
  it('defaults to embedded infrastructure and the local origin under both local names', () => {
    const config = loadConfig({});
    expect(config.databaseUrl).toBeUndefined();
    expect(config.temporal.address).toBeUndefined();
    expect(config.port).toBe(3000);
    expect(config.allowedOrigins).toEqual(['http://localhost:3000', 'http://127.0.0.1:3000']);
    expect(config.secureCookies).toBe(false);
    expect(config.trustProxy).toBe(false);
  });

  it('normalises configured origins so that an Origin header compares exactly', () => {
    const config = loadConfig({ PUBLIC_ORIGIN: 'https://capture.example/', ALLOWED_ORIGINS: 'https://a.example:443, http://b.example:8080/' });
    expect(config.publicOrigin).toBe('https://capture.example');
    expect(config.allowedOrigins).toEqual(['https://capture.example', 'https://a.example', 'http://b.example:8080']);
    expect(config.secureCookies).toBe(true);
  });

  it('refuses invalid settings with a message naming each variable', () => {
    expect(() => loadConfig({ ALLOWED_ORIGINS: 'nope' })).toThrow(/ALLOWED_ORIGINS/);
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT/);
    expect(() => loadConfig({ MODEL_PROVIDER: 'other' })).toThrow(/MODEL_PROVIDER/);
  });
});
