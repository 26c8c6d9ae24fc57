import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { ATTEMPT_LIMIT_MS, LONGEST_MODEL_CALL_LIMIT_MS } from '../../../src/domain/retry-policy.ts';
import { holdLifetimeMs } from '../../../src/features/credits/paid-call.ts';
import { LOCAL_LONG_CALL, LONG_CALL } from '../../../src/temporal/failures.ts';

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

  it('keeps browser-extension origins as browsers send them, never as the opaque "null"', () => {
    const config = loadConfig({ ALLOWED_ORIGINS: 'chrome-extension://abcdefghijklmnopabcdefghijklmnop/' });
    expect(config.allowedOrigins).toContain('chrome-extension://abcdefghijklmnopabcdefghijklmnop');
    expect(config.allowedOrigins).not.toContain('null');
  });

  it('refuses origins no browser could send, and a PUBLIC_ORIGIN that is not http(s)', () => {
    for (const value of ['data:text/html,x', 'file:///tmp/page.html', 'null']) {
      expect(() => loadConfig({ ALLOWED_ORIGINS: value }), value).toThrow(/ALLOWED_ORIGINS/);
    }
    expect(() => loadConfig({ PUBLIC_ORIGIN: 'chrome-extension://abc' })).toThrow(/PUBLIC_ORIGIN/);
  });

  it('reads TRUST_PROXY as the proxies’ addresses and refuses "true"', () => {
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8,127.0.0.1' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
  });

  it('refuses invalid settings with a message naming each variable', () => {
    expect(() => loadConfig({ ALLOWED_ORIGINS: 'nope' })).toThrow(/ALLOWED_ORIGINS/);
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT/);
    expect(() => loadConfig({ MODEL_PROVIDER: 'other' })).toThrow(/MODEL_PROVIDER/);
  });
});

describe('model call time', () => {
  it('takes a slow local model (five minutes a request, one retry), and refuses a call longer than half of one attempt of background work', () => {
    expect(loadConfig({ MODEL_TIMEOUT_MS: '300000', MODEL_MAX_RETRIES: '1' }).model.timeoutMs).toBe(300_000);
    expect(() => loadConfig({ MODEL_TIMEOUT_MS: '600000', MODEL_MAX_RETRIES: '1' })).toThrow(/MODEL_TIMEOUT_MS × \(MODEL_MAX_RETRIES \+ 1\).*15 minutes/);
  });

  it('leaves background work, under the longest call allowed, most of its attempt to wait for a model slot', () => {
    const lifetime = holdLifetimeMs(LONGEST_MODEL_CALL_LIMIT_MS);
    expect(LOCAL_LONG_CALL.startToCloseTimeout).toBe(ATTEMPT_LIMIT_MS);
    expect(LONG_CALL.startToCloseTimeout).toBe(ATTEMPT_LIMIT_MS);
    expect(ATTEMPT_LIMIT_MS - lifetime).toBeGreaterThanOrEqual(14 * 60_000);
  });
});

describe('retention settings', () => {
  it('default to the bounds the README documents', () => {
    const config = loadConfig({});
    expect(config.retention).toEqual({
      outboxDays: 7,
      idempotencyHours: 24,
      translationCacheDays: 30,
      translationCacheMaxRows: 200_000,
      unlinkedAudioDays: 7,
      encounterDays: 30,
    });
    expect(config.housekeeping).toEqual({ intervalMinutes: 60, batchRows: 500, maxRowsPerTable: 50_000, maxSecondsPerTable: 20 });
  });

  it('refuse a per-table time budget the sweep activity could not finish in', () => {
    expect(() => loadConfig({ HOUSEKEEPING_MAX_SECONDS_PER_TABLE: '600' })).toThrow(/HOUSEKEEPING_MAX_SECONDS_PER_TABLE/);
    expect(() => loadConfig({ RETENTION_OUTBOX_DAYS: '0' })).toThrow(/RETENTION_OUTBOX_DAYS/);
    // Encounters must outlive the week a batch may be sent late in, or a retried batch counts twice.
    expect(() => loadConfig({ RETENTION_ENCOUNTER_DAYS: '7' })).toThrow(/RETENTION_ENCOUNTER_DAYS/);
  });
});
