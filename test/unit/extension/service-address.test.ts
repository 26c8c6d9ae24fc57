import { describe, expect, it } from 'vitest';
import { serviceAddressProblem } from '../../../extension/src/shared/service-address.ts';

describe('serviceAddressProblem', () => {
  it('accepts https anywhere, and plain http only on this machine', () => {
    for (const ok of [
      'https://lcs.example.org',
      'https://10.0.0.5:8443/lcs',
      'http://localhost:3000',
      'http://127.0.0.1:8080',
      'http://[::1]:3000',
      'http://app.localhost',
    ])
      expect(serviceAddressProblem(ok), ok).toBeNull();
  });

  it('refuses plain http beyond loopback, suggesting the https address', () => {
    expect(serviceAddressProblem('http://lcs.example.org')).toMatch(/must start with https:\/\/.*Try https:\/\/lcs\.example\.org\.$/);
    expect(serviceAddressProblem('http://192.168.1.10:3000/lcs')).toMatch(/Try https:\/\/192\.168\.1\.10:3000\/lcs\.$/);
    // Names that only look local are not.
    for (const remote of ['http://localhost.example.org', 'http://127.0.0.1.nip.io', 'http://lcs.example.org#localhost'])
      expect(serviceAddressProblem(remote), remote).toMatch(/https/);
  });

  it('refuses what is not a web address', () => {
    expect(serviceAddressProblem('lcs.example.org')).toMatch(/not a web address/);
    expect(serviceAddressProblem('ftp://lcs.example.org')).toMatch(/must start with https/);
    expect(serviceAddressProblem('javascript:alert(1)')).toMatch(/must start with https/);
  });
});
