import ipaddr from 'ipaddr.js';

/** Fastify's `trustProxy`: off, or the addresses and ranges of the proxies in front. */
export type TrustProxy = false | string[];

/** Names of well-known ranges that Fastify's `trustProxy` (proxy-addr) accepts beside addresses. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * Reads TRUST_PROXY: the proxies' addresses; the client is then the right-most X-Forwarded-For
 * entry that is not one of them, and only a request that comes from one of them is believed.
 * "true" is refused: it would take the left-most entry, which the client writes itself. So is a
 * hop count: it cannot tell the proxy from a client that connects directly and sends enough
 * entries of its own (Fastify 5 ignores a numeric `trustProxy` for that reason).
 */
export function parseTrustProxy(raw: string): { value: TrustProxy } | { error: string } {
  const value = raw.trim();
  if (value === '' || value === 'false' || value === '0') return { value: false };
  if (value === 'true' || /^\d+$/.test(value)) {
    return {
      error: `${value} would believe X-Forwarded-For entries a client writes itself; list the proxies' addresses or ranges (e.g. 10.0.0.0/8, or loopback)`,
    };
  }
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const invalid = entries.filter((entry) => !RANGE_NAMES.has(entry) && !ipaddr.isValid(entry) && !ipaddr.isValidCIDR(entry));
  if (invalid.length > 0) return { error: `not an address, a CIDR range or loopback/linklocal/uniquelocal: ${invalid.join(', ')}` };
  return { value: entries };
}

/**
 * The key a client address is limited under: an IPv4 address as it is, an IPv6 address by its
 * /64 — one subscriber's prefix, inside which a client picks new addresses at will.
 */
export function addressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const prefix = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(':')}::/64`;
}
