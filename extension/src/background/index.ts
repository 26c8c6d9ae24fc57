import { PAGE_TRANSLATION_PORT, type Answers, type PageCommand, type Request, type PageTranslationPortMessage } from '../shared/messages.ts';
import { loadSettings } from '../shared/settings.ts';
import { isAutoTranslated } from '../shared/site-list.ts';
import { capture, cardProgress } from './capture.ts';
import { knownExpressions } from './known-expressions.ts';
import { PageTranslationQueue } from './page-translation-queue.ts';

/**
 * The service worker: it owns the token and the network. Every listener is registered here, in
 * the worker's first turn, so that an event that wakes the worker finds its handler.
 */

const CAPTURE_MENU = 'capture-to-library';

chrome.runtime.onInstalled.addListener(() => {
  chrome.contextMenus.create({ id: CAPTURE_MENU, title: 'Capture to library', contexts: ['selection'] });
});

const tell = (tabId: number, command: PageCommand) =>
  chrome.tabs.sendMessage(tabId, command).catch(() => {
    // A page without the content script (the browser's own pages): nothing to show there.
  });

chrome.contextMenus.onClicked.addListener((info, tab) => {
  if (info.menuItemId !== CAPTURE_MENU || !info.selectionText || tab?.id === undefined) return;
  const tabId = tab.id;
  void capture(info.selectionText).then((outcome) => tell(tabId, { type: 'show-capture', outcome }));
});

chrome.commands.onCommand.addListener((command, tab) => {
  if (tab?.id === undefined) return;
  if (command === 'capture-selection') void tell(tab.id, { type: 'capture-selection' });
  if (command === 'translate-page') void tell(tab.id, { type: 'translate-page' });
});

async function answer(request: Request, sender: chrome.runtime.MessageSender): Promise<Answers[Request['type']]> {
  switch (request.type) {
    case 'capture':
      return capture(request.text);
    case 'card-progress':
      return cardProgress(request.cardId);
    case 'known-expressions':
      return knownExpressions();
    case 'page-opened':
      return { autoTranslate: isAutoTranslated(sender.tab?.url, (await loadSettings()).autoTranslateSites) };
    case 'open-options':
      await chrome.runtime.openOptionsPage();
      return null;
  }
}

chrome.runtime.onMessage.addListener((request: Request, sender, sendResponse) => {
  void answer(request, sender).then(sendResponse);
  return true; // the answer comes asynchronously
});

chrome.runtime.onConnect.addListener((port) => {
  if (port.name !== PAGE_TRANSLATION_PORT) return;
  const queue = new PageTranslationQueue((message) => port.postMessage(message));
  port.onMessage.addListener((message: PageTranslationPortMessage) => {
    if (message.type === 'translate') queue.add(message.items);
  });
  port.onDisconnect.addListener(() => queue.close());
});
