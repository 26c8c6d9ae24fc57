import { restrictLocalStorage } from './browser-compat.ts';

/**
 * The learner's settings, in chrome.storage.local only: the token must never reach `sync`
 * storage (it would be copied to every browser of the account) nor any log. The service worker
 * restricts local storage to the extension's own pages and itself (`restrictStorage`), so no
 * content script, and so no page, can read the token. Firefox cannot restrict it (browser-compat.ts):
 * there only the content script's own world, which no page can enter, keeps it from pages.
 */
export interface Settings {
  serviceUrl: string;
  token: string;
  /** Hosts whose pages are translated as soon as they open (`example.org` also covers its subdomains). */
  autoTranslateSites: string[];
  /** Off unless the learner turns it on: a capture also sends the sentence around the selection (never the page's address or other text). */
  sendContext: boolean;
  /** Off unless the learner turns it on: the known expressions underlined on a page are reported as encounters (card ids and times only). */
  countEncounters: boolean;
  /** Off unless the learner turns it on: a capture from a caption keeps the video's address at that moment with its sentence (nothing else of the page). */
  linkToMoment: boolean;
}

const DEFAULT_SERVICE_URL = 'http://localhost:3000';

export async function loadSettings(): Promise<Settings> {
  const stored = await chrome.storage.local.get(['serviceUrl', 'token', 'autoTranslateSites', 'sendContext', 'countEncounters', 'linkToMoment']);
  return {
    serviceUrl: typeof stored.serviceUrl === 'string' && stored.serviceUrl ? stored.serviceUrl : DEFAULT_SERVICE_URL,
    token: typeof stored.token === 'string' ? stored.token : '',
    autoTranslateSites: Array.isArray(stored.autoTranslateSites) ? stored.autoTranslateSites.filter((s): s is string => typeof s === 'string') : [],
    // Only an explicit true turns either on: anything else stored (or nothing) is off.
    sendContext: stored.sendContext === true,
    countEncounters: stored.countEncounters === true,
    linkToMoment: stored.linkToMoment === true,
  };
}

export async function saveSettings(settings: Settings): Promise<void> {
  await chrome.storage.local.set({ ...settings });
}

/** Local storage (the token) readable by the extension's pages and its service worker only, never by content scripts (where the browser can restrict it). */
export const restrictStorage = restrictLocalStorage;
