/**
 * Where Chromium and Firefox differ, in one place, by feature detection (never by the browser's
 * name). Both builds run the same code; each function says what the other browser lacks.
 */

/**
 * The context menu and the keyboard shortcuts, undefined where the browser has neither (Firefox for
 * Android): the background then registers the rest of its listeners instead of failing at start.
 */
export const contextMenus: typeof chrome.contextMenus | undefined = chrome.contextMenus;
export const commands: typeof chrome.commands | undefined = chrome.commands;

/** Access to every site: the content script's matches, which Firefox lets the learner withhold or revoke. */
const SITE_ACCESS = { origins: ['<all_urls>'] };

/**
 * Local storage (the token) readable by the extension's pages and its background only, never by
 * content scripts. Firefox has no `setAccessLevel` (its content scripts always read
 * `storage.local`; a page still cannot, as it cannot run code in the content script's world).
 */
export async function restrictLocalStorage(): Promise<void> {
  const local: Partial<Pick<chrome.storage.StorageArea, 'setAccessLevel'>> = chrome.storage.local;
  if (local.setAccessLevel) await local.setAccessLevel({ accessLevel: 'TRUSTED_CONTEXTS' });
}

/**
 * Whether the extension may run on the pages the learner opens (Chromium grants it at install; Firefox may not, and
 * lets the learner take it back). Read from the granted list: Chromium's `contains` answers false for `<all_urls>`
 * even while the content script runs everywhere, though its list holds it.
 */
export async function hasSiteAccess(): Promise<boolean> {
  const { origins = [] } = await chrome.permissions.getAll();
  return origins.some((origin) => origin === '<all_urls>' || origin === '*://*/*');
}

/** Asks the learner for access to every site; must run in a click's turn (the browser asks only during a user gesture). */
export const requestSiteAccess = (): Promise<boolean> => chrome.permissions.request(SITE_ACCESS);

/** Calls `changed` whenever the learner grants or revokes a permission (in the browser's own settings too). */
export function onPermissionsChanged(changed: () => void): void {
  chrome.permissions.onAdded.addListener(changed);
  chrome.permissions.onRemoved.addListener(changed);
}

/** The browser's page for the extension's shortcuts: Firefox opens its own (`about:addons` cannot be opened by an extension); Chromium's is an address. */
export async function openShortcutSettings(): Promise<void> {
  const commands = chrome.commands as typeof chrome.commands & { openShortcutSettings?: () => Promise<void> };
  if (commands.openShortcutSettings) return commands.openShortcutSettings();
  await chrome.tabs.create({ url: 'chrome://extensions/shortcuts' });
}
