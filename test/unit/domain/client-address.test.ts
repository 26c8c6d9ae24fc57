import { describe, expect, it } from 'vitest';
import { addressKey, parseTrustProxy } from '../../../src/domain/client-address.ts';

describe('parseTrustProxy', () => {
  it('reads off, or a list of proxy addresses and ranges', () => {
    expect(parseTrustProxy('')).toEqual({ value: false });
    expect(parseTrustProxy('false')).toEqual({ value: false });
    expect(parseTrustProxy('0')).toEqual({ value: false });
    expect(parseTrustProxy('10.0.0.0/8, 192.168.1.7 ,fd00::/8,loopback')).toEqual({ value: ['10.0.0.0/8', '192.168.1.7', 'fd00::/8', 'loopback'] });
  });

  it('refuses "true" and hop counts, which would trust what a client writes into X-Forwarded-For', () => {
    expect(parseTrustProxy('true')).toEqual({ error: expect.stringContaining('X-Forwarded-For') });
    expect(parseTrustProxy('1')).toEqual({ error: expect.stringContaining('X-Forwarded-For') });
  });

  it('refuses entries that are not addresses or ranges', () => {
    expect(parseTrustProxy('10.0.0.0/33')).toEqual({ error: expect.stringContaining('10.0.0.0/33') });
    expect(parseTrustProxy('proxy.internal')).toEqual({ error: expect.stringContaining('proxy.internal') });
  });
});

describe('addressKey', () => {
  it('keeps IPv4 addresses, also when mapped into IPv6', () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
  });

  it('groups IPv6 addresses by their /64, however they are written', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:3::1')).not.toBe(addressKey('2001:db8:1:2::1'));
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });
});
