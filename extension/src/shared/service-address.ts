/** Where the token may be sent: a pure rule, checked by the options page and again by the service worker. */

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why a service address cannot carry the token, or null when it can: https anywhere, plain http
 * only to this machine (where nothing travels over a network).
 */
export function serviceAddressProblem(address: string): string | null {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return 'The service URL is not a web address (e.g. https://lcs.example.org).';
  }
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && (LOOPBACK.has(url.hostname) || url.hostname.endsWith('.localhost'))) return null;
  if (url.protocol === 'http:')
    return (
      `The service URL must start with https:// (plain http:// is allowed only for this machine: localhost or 127.0.0.1), so that your token never ` +
      `travels unencrypted. Try https://${url.host}${url.pathname === '/' ? '' : url.pathname}.`
    );
  return 'The service URL must start with https://.';
}
