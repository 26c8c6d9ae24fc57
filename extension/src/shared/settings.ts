/**
 * The learner's settings, in chrome.storage.local only: the token must never reach `sync`
 * storage (it would be copied to every browser of the account) nor any log. The service worker
 * restricts local storage to the extension's own pages and itself (`restrictStorage`), so no
 * content script, and so no page, can read the token.
 */
export interface Settings {
  serviceUrl: string;
  token: string;
  /** Hosts whose pages are translated as soon as they open (`example.org` also covers its subdomains). */
  autoTranslateSites: string[];
}

export const DEFAULT_SERVICE_URL = 'http://localhost:3000';

export async function loadSettings(): Promise<Settings> {
  const stored = await chrome.storage.local.get(['serviceUrl', 'token', 'autoTranslateSites']);
  return {
    serviceUrl: typeof stored.serviceUrl === 'string' && stored.serviceUrl ? stored.serviceUrl : DEFAULT_SERVICE_URL,
    token: typeof stored.token === 'string' ? stored.token : '',
    autoTranslateSites: Array.isArray(stored.autoTranslateSites) ? stored.autoTranslateSites.filter((s): s is string => typeof s === 'string') : [],
  };
}

export async function saveSettings(settings: Settings): Promise<void> {
  await chrome.storage.local.set({ ...settings });
}

/** Local storage (the token) readable by the extension's pages and its service worker only, never by content scripts. */
export async function restrictStorage(): Promise<void> {
  await chrome.storage.local.setAccessLevel({ accessLevel: 'TRUSTED_CONTEXTS' });
}

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
    return `The service URL must start with https:// (plain http:// is allowed only for this machine: localhost or 127.0.0.1), so that your token never travels unencrypted. Try https://${url.host}${url.pathname === '/' ? '' : url.pathname}.`;
  return 'The service URL must start with https://.';
}
