import { commands, contextMenus, hasSiteAccess, onPermissionsChanged } from '../shared/browser-compat.ts';
import { PAGE_TRANSLATION_PORT, type Answers, type Link, type PageCommand, type PageTranslationRequest, type Request } from '../shared/messages.ts';
import { loadSettings, restrictStorage } from '../shared/settings.ts';
import { isAutoTranslated } from '../shared/site-list.ts';
import { capture, cardProgress } from './capture.ts';
import { EncounterReporter } from './encounters.ts';
import { knownExpressions } from './known-expressions.ts';
import { PageTranslationQueue } from './page-translation-queue.ts';
import { showSiteAccess } from './site-access-badge.ts';

/**
 * The service worker: it owns the token and the network. Every listener is registered here, in
 * the worker's first turn, so that an event that wakes the worker finds its handler.
 */

const CAPTURE_MENU = 'capture-to-library';
const encounters = new EncounterReporter();

// The token lives in local storage: readable by the service worker and the extension's pages,
// never by a content script (and so never by a page that might subvert one). Set on every start,
// before anything is stored; the browser keeps it for the profile.
void restrictStorage();

chrome.runtime.onInstalled.addListener(({ reason }) => {
  contextMenus?.create({ id: CAPTURE_MENU, title: 'Capture to library', contexts: ['selection'] });
  // Onboarding: where the browser has not given site access at install, the options page asks for it.
  if (reason === 'install') void hasSiteAccess().then((granted) => (granted ? undefined : chrome.runtime.openOptionsPage()));
});
onPermissionsChanged(() => void showSiteAccess());
void showSiteAccess();

const tell = (tabId: number, command: PageCommand) =>
  chrome.tabs.sendMessage(tabId, command).catch(() => {
    // A page without the content script (the browser's own pages): nothing to show there.
  });

contextMenus?.onClicked.addListener((info, tab) => {
  if (info.menuItemId !== CAPTURE_MENU || !info.selectionText || tab?.id === undefined) return;
  const [tabId, text] = [tab.id, info.selectionText];
  void (async () => {
    // The sentence around the selection is in the page: with that setting on, the top frame's content script captures.
    if (info.frameId === 0 && (await loadSettings()).sendContext) await tell(tabId, { type: 'capture-selection' });
    else await tell(tabId, { type: 'show-capture', outcome: await capture(text) });
  })();
});

commands?.onCommand.addListener((command, tab) => {
  if (tab?.id === undefined) return;
  if (command === 'capture-selection') void tell(tab.id, { type: 'capture-selection' });
  if (command === 'translate-page') void tell(tab.id, { type: 'translate-page' });
});

async function answer(request: Request, sender: chrome.runtime.MessageSender): Promise<Answers[Request['type']]> {
  switch (request.type) {
    case 'capture':
      // The address is the browser's (the sender's frame), never one a content script names.
      return capture(request.text, request.sentence, request.seconds === undefined ? undefined : { pageUrl: sender.url, seconds: request.seconds });
    case 'card-progress':
      return cardProgress(request.cardId);
    case 'known-expressions':
      return knownExpressions();
    case 'met':
      // Only with "Count when I meet my expressions" on (checked again when the batch goes).
      if ((await loadSettings()).countEncounters) await encounters.met(sender.tab?.id ?? chrome.tabs.TAB_ID_NONE, request.pageViewId, request.cardIds);
      return null;
    case 'page-opened':
      return { autoTranslate: isAutoTranslated(sender.tab?.url, (await loadSettings()).autoTranslateSites) };
    case 'open':
      await open(request.link);
      return null;
  }
}

/** The web app's screens the extension links to: a fixed list, so a message names a screen, never an address. */
const WEB_APP_PATHS: Record<Exclude<Link, 'options'>, string> = { settings: '/settings', credits: '/credits' };

async function open(link: Link): Promise<void> {
  if (link === 'options') return chrome.runtime.openOptionsPage();
  const path = WEB_APP_PATHS[link];
  if (!path) return;
  await chrome.tabs.create({ url: `${(await loadSettings()).serviceUrl}${path}` });
}

chrome.runtime.onMessage.addListener((request: Request, sender, sendResponse) => {
  // Only the extension's own content scripts and pages can send here (no externally_connectable).
  if (sender.id !== chrome.runtime.id) return false;
  void answer(request, sender).then(sendResponse);
  return true; // the answer comes asynchronously
});

chrome.runtime.onConnect.addListener((port) => {
  if (port.name !== PAGE_TRANSLATION_PORT || port.sender?.id !== chrome.runtime.id) return;
  const queue = new PageTranslationQueue((message) => port.postMessage(message));
  port.onMessage.addListener((message: PageTranslationRequest) => {
    if (message.type === 'translate') queue.add(message.items, message.now);
    if (message.type === 'cancel') queue.cancel(message.keys);
  });
  port.onDisconnect.addListener(() => queue.close());
});
