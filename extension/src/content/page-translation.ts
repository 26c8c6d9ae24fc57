import { ask, PAGE_TRANSLATION_PORT, type KnownExpression, type PageTranslationItem, type PageTranslationPortMessage } from '../shared/messages.ts';
import { findBlocks, SEEN } from './blocks.ts';
import { restoreTranslation, serialiseBlock } from './inline-markup.ts';
import { markKnown } from './known-marks.ts';
import type { Ui } from './ui.ts';

/** Blocks inserted later are gathered this long before they are sent (a feed renders in bursts). */
const MUTATION_DEBOUNCE_MS = 300;
/** "Near the viewport": within one screen's height of it. */
const NEAR_VIEWPORT = '100% 0px';
const LETTER = /\p{L}/u;
const PLACEHOLDERS = /<\/?[a-z]+\d+>|\{\d+\}/g;

/**
 * The page read bilingually, in the content script (which owns the DOM): it walks the blocks,
 * sends them to the service worker over a port (near the viewport first), puts each translation
 * under its block, underlines the learner's known expressions, and follows the page as it
 * changes. The service worker batches, and talks to the service.
 */
export class PageTranslation {
  private port: chrome.runtime.Port | null = null;
  private readonly waiting = new Map<string, { block: Element; nodes: Node[] }>();
  private counter = 0;
  private known: Promise<KnownExpression[]> = Promise.resolve([]);
  private showingOriginal = false;
  private started = false;

  private readonly ui: Ui;

  constructor(ui: Ui) {
    this.ui = ui;
  }

  /** Starts, or when already started switches between bilingual and original only. */
  translateOrToggle(): void {
    if (this.started) this.toggle();
    else this.start();
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.known = ask({ type: 'known-expressions' }).catch(() => []);
    this.ui.showSwitch(false, () => this.toggle());
    this.send(findBlocks(document.body));
    let timer: ReturnType<typeof setTimeout> | undefined;
    new MutationObserver((records) => {
      if (records.every((record) => Array.from(record.addedNodes).every(isOwnNode))) return;
      clearTimeout(timer);
      timer = setTimeout(() => this.send(findBlocks(document.body)), MUTATION_DEBOUNCE_MS);
    }).observe(document.body, { childList: true, subtree: true });
  }

  toggle(): void {
    this.showingOriginal = !this.showingOriginal;
    document.documentElement.dataset.lcsView = this.showingOriginal ? 'original' : 'bilingual';
    this.ui.showSwitch(this.showingOriginal, () => this.toggle());
  }

  private connect(): chrome.runtime.Port {
    if (this.port) return this.port;
    const port = chrome.runtime.connect({ name: PAGE_TRANSLATION_PORT });
    port.onMessage.addListener((message: PageTranslationPortMessage) => this.receive(message));
    port.onDisconnect.addListener(() => {
      // The service worker went away mid-page: what was waiting is sent again on the next pass.
      this.port = null;
      for (const { block } of this.waiting.values()) block.removeAttribute(SEEN);
      this.waiting.clear();
    });
    this.port = port;
    return port;
  }

  private send(blocks: Element[]): void {
    const items = new Map<Element, PageTranslationItem>();
    for (const block of blocks) {
      block.setAttribute(SEEN, 'sent');
      const { text, nodes } = serialiseBlock(block);
      if (!LETTER.test(text.replace(PLACEHOLDERS, ''))) continue;
      const key = `b${this.counter++}`;
      this.waiting.set(key, { block, nodes });
      items.set(block, { key, text });
    }
    if (items.size === 0) return;
    // The observer's first report says which blocks are near the viewport: those go first.
    const observer = new IntersectionObserver(
      (entries) => {
        observer.disconnect();
        const near = new Set(entries.filter((entry) => entry.isIntersecting).map((entry) => entry.target));
        const ordered = [...items].sort(([a], [b]) => Number(near.has(b)) - Number(near.has(a))).map(([, item]) => item);
        this.connect().postMessage({ type: 'translate', items: ordered } satisfies PageTranslationPortMessage);
      },
      { rootMargin: NEAR_VIEWPORT },
    );
    for (const block of items.keys()) observer.observe(block);
  }

  private receive(message: PageTranslationPortMessage): void {
    if (message.type === 'translated') {
      const entry = this.waiting.get(message.key);
      if (!entry) return;
      this.waiting.delete(message.key);
      const translation = document.createElement('span');
      translation.className = 'lcs-translation';
      translation.dataset.lcsLabel = 'Translation';
      translation.setAttribute('translate', 'no');
      translation.append(restoreTranslation(message.text, entry.nodes));
      entry.block.append(translation);
      entry.block.setAttribute(SEEN, 'translated');
      void this.known.then((expressions) => markKnown(entry.block, expressions));
    } else if (message.type === 'stopped') {
      this.ui.toast(`Translation stopped. ${message.message}`, {
        state: 'failed',
        sticky: true,
        ...(message.openOptions ? { openOptions: () => void ask({ type: 'open-options' }) } : {}),
      });
    } else if (message.type === 'waiting') {
      this.ui.toast(`The service asks to wait ${message.seconds} s; the translation goes on after that.`);
    }
  }
}

const isOwnNode = (node: Node) =>
  node instanceof Element && (node.classList.contains('lcs-translation') || node.classList.contains('lcs-known') || node.tagName === 'LCS-UI');
