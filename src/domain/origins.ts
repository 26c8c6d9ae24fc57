/**
 * Browser-extension schemes. The URL standard does not know them ("non-special" schemes), so
 * `new URL('chrome-extension://id').origin` is the opaque origin "null" — yet browsers send an
 * extension's requests with `Origin: chrome-extension://id`.
 */
const EXTENSION_SCHEMES = new Set(['chrome-extension:', 'moz-extension:', 'safari-web-extension:']);

/**
 * The `Origin` header a browser sends from a configured URL, or null when that URL has no origin
 * a request could name: an opaque one (`data:`, `file:`, …), which browsers send as the literal
 * "null" that any sandboxed frame or redirected request can send too.
 */
export function originOf(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
  if (EXTENSION_SCHEMES.has(url.protocol) && /^[a-z0-9-]+$/i.test(url.host)) return `${url.protocol}//${url.host.toLowerCase()}`;
  return null;
}

/** Whether a request's `Origin` header is one of the allowed ones; the opaque "null" never is. */
export function isAllowedOrigin(allowed: readonly string[], origin: string): boolean {
  return origin !== 'null' && allowed.includes(origin);
}
