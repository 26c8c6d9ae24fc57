import {
  ask,
  PAGE_TRANSLATION_PORT,
  type KnownExpression,
  type Link,
  type PageTranslationItem,
  type PageTranslationPortMessage,
  type PageTranslationRequest,
  type Trouble,
} from '../shared/messages.ts';
import { findBlocks, kindOf } from './blocks.ts';
import { isExtensionNode, ownNodes, restoreTranslation, serialiseBlock, type Piece } from './inline-markup.ts';
import { knownIn } from './known-marks.ts';
import { linkActions } from './links.ts';
import { installTranslationStyle, showOriginalOnly } from './translation-style.ts';
import type { ToastAction, Ui } from './ui.ts';

// Changes are gathered this long before they are read (a feed renders in bursts, a counter ticks).
const MUTATION_DEBOUNCE_MS = 300;
// In-view blocks sent at once, as the first batch: the reader sees them first.
const FIRST_BATCH = 10;
// The least time between two sends of one block that keeps changing, by how often it was sent:
// the first change goes at once, then 1 s, 2 s, … up to 60 s, so a ticking counter cannot drain credits.
const gapAfterSends = (sends: number) => (sends <= 1 ? 0 : Math.min(1_000 * 2 ** (sends - 2), 60_000));
// Re-translations of changed blocks per page and per ten minutes; past it, changed blocks keep no stale translation and wait.
const RETRANSLATIONS_PER_TEN_MINUTES = 100;
// How often a page may remove a translation from an unchanged block before it stays away.
const REPAIRS = 3;
const LETTER = /\p{L}/u;
const PLACEHOLDERS = /<\/?[a-z]+\d+>|\{\d+\}/g;

// Trouble in the words the switches say it in (the page's and the captions').
export const TROUBLE_WORDS: Record<Trouble, string> = {
  unavailable: 'the service is unavailable',
  unreachable: 'the service cannot be reached',
  'rate-limited': 'the service asks to slow down',
};

interface Block {
  // The text sent (or to send), with its placeholders.
  text: string;
  pieces: Piece[];
  // The key of the request waiting for this block's translation, if any.
  key: string | null;
  translation: HTMLElement | null;
  // Retries ran out: it waits for the learner's Retry.
  failed: boolean;
  // How often its text was sent, and when last (ms).
  sends: number;
  lastSent: number;
  repairs: number;
  retryTimer?: ReturnType<typeof setTimeout>;
}

// The page read bilingually, in the content script (which owns the DOM): it walks the blocks,
// sends them to the service worker over a port (those in view first, at once), puts each
// translation under its block as fresh nodes, underlines the learner's known expressions in the
// extension's own layer, and follows the page as it changes: a new block is translated, a changed
// one again (only it, debounced), a removed one takes its translation along and is not sent.
// Nothing is written into the page but the translations: what the extension knows of a block is
// kept here, out of the page's reach.
export class PageTranslation {
  private port: chrome.runtime.Port | null = null;
  private readonly blocks = new Map<Element, Block>();
  private readonly byKey = new Map<string, Element>();
  // Translations already received, by text: a block returning to an earlier text costs nothing.
  private readonly cache = new Map<string, string>();
  private counter = 0;
  private known: Promise<KnownExpression[]> = Promise.resolve([]);
  private showingOriginal = false;
  private started = false;
  private trouble: Trouble | null = null;
  private failedTrouble: Trouble = 'unavailable';
  private stoppedWith: { message: string; link?: Link } | null = null;
  private language: { lang: string; dir: string } | null = null;
  private readonly retranslations: number[] = [];
  private readonly arrived: { key: string; text: string }[] = [];
  private arrivalFrame = 0;
  private lastSwitch = '';
  // This page view, for encounters: random, made at load (a reload is a new page view), never derived from the address.
  private readonly pageViewId = crypto.randomUUID();
  private readonly metCards = new Set<string>();

  private readonly ui: Ui;

  constructor(ui: Ui) {
    this.ui = ui;
  }

  // Starts, or when already started switches between bilingual and original only.
  translateOrToggle(): void {
    if (this.started) this.toggle();
    else this.start();
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    installTranslationStyle();
    this.known = ask({ type: 'known-expressions' }).catch(() => []);
    this.render();
    this.send(findBlocks(document.body, (element) => this.blocks.has(element)));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const changed = new Set<Element>();
    new MutationObserver((records) => {
      let relevant = false;
      for (const record of records) {
        if (insideOwn(record.target) || (record.type === 'childList' && onlyOwn(record.addedNodes) && onlyOwn(record.removedNodes))) continue;
        relevant = true;
        const block = this.trackedAround(record.target);
        if (block) changed.add(block);
      }
      if (!relevant) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        const blocks = [...changed];
        changed.clear();
        this.followChanges(blocks);
      }, MUTATION_DEBOUNCE_MS);
    }).observe(document.body, { childList: true, characterData: true, subtree: true });
  }

  toggle(): void {
    if (!this.started) return;
    this.showingOriginal = !this.showingOriginal;
    showOriginalOnly(this.showingOriginal);
    this.render();
  }

  // The tracked block `node` is in (or is), if any.
  private trackedAround(node: Node): Element | null {
    for (let at: Node | null = node; at && at !== document.body; at = at.parentNode) if (at instanceof Element && this.blocks.has(at)) return at;
    return null;
  }

  private followChanges(changed: Element[]): void {
    // Removed blocks: their translation left with them; what they still wait for is not sent.
    const gone: string[] = [];
    for (const [element, block] of this.blocks) {
      if (element.isConnected) continue;
      if (block.key) gone.push(block.key);
      this.forget(element, block);
    }
    if (gone.length > 0) this.post({ type: 'cancel', keys: gone });
    for (const element of changed) if (element.isConnected) this.reread(element);
    this.send(findBlocks(document.body, (element) => this.blocks.has(element)));
    this.render();
  }

  // A block whose content changed: translated again if its text did, its translation put back if only that went.
  private reread(element: Element): void {
    const block = this.blocks.get(element)!;
    const { text, pieces } = serialiseBlock(element);
    if (text === block.text) {
      if (block.translation && !block.translation.isConnected && block.repairs++ < REPAIRS) element.append(block.translation);
      return;
    }
    block.translation?.remove();
    block.translation = null;
    if (block.key) {
      this.post({ type: 'cancel', keys: [block.key] });
      this.byKey.delete(block.key);
      block.key = null;
    }
    block.text = text;
    block.pieces = pieces;
    block.failed = false;
    if (!LETTER.test(text.replace(PLACEHOLDERS, ''))) return;
    const cached = this.cache.get(text);
    if (cached !== undefined) return this.show(element, block, cached);
    clearTimeout(block.retryTimer);
    const now = Date.now();
    const wait = Math.max(block.lastSent + gapAfterSends(block.sends) - now, 0);
    while (this.retranslations.length > 0 && this.retranslations[0]! < now - 600_000) this.retranslations.shift();
    if (this.retranslations.length >= RETRANSLATIONS_PER_TEN_MINUTES) return;
    const resend = () => {
      if (!element.isConnected || block.key || block.text !== text) return;
      this.retranslations.push(Date.now());
      this.request([[element, block]], true);
    };
    if (wait === 0) resend();
    else block.retryTimer = setTimeout(resend, wait);
  }

  private connect(): chrome.runtime.Port {
    if (this.port) return this.port;
    const port = chrome.runtime.connect({ name: PAGE_TRANSLATION_PORT });
    port.onMessage.addListener((message: PageTranslationPortMessage) => this.receive(message));
    port.onDisconnect.addListener(() => {
      // The service worker went away mid-page: what was waiting is asked for again.
      this.port = null;
      if (this.stoppedWith) return;
      const waiting = [...this.blocks].filter(([, block]) => block.key !== null);
      for (const [, block] of waiting) block.key = null;
      this.byKey.clear();
      if (waiting.length > 0) this.request(waiting, false);
    });
    this.port = port;
    return port;
  }

  private post(message: PageTranslationRequest): void {
    this.connect().postMessage(message);
  }

  // Starts tracking `elements` and asks for their translations, those in view first.
  private send(elements: Element[]): void {
    const fresh: [Element, Block][] = [];
    for (const element of elements) {
      const { text, pieces } = serialiseBlock(element);
      const block: Block = { text, pieces, key: null, translation: null, failed: false, sends: 0, lastSent: 0, repairs: 0 };
      this.blocks.set(element, block);
      if (!LETTER.test(text.replace(PLACEHOLDERS, ''))) continue;
      const cached = this.cache.get(text);
      if (cached !== undefined) this.show(element, block, cached);
      else fresh.push([element, block]);
    }
    if (fresh.length === 0 || this.stoppedWith) return;
    const inView = fresh.filter(([element]) => {
      const rect = element.getBoundingClientRect();
      return rect.bottom > 0 && rect.top < innerHeight && rect.height > 0;
    });
    const first = inView.slice(0, FIRST_BATCH);
    const rest = fresh.filter((entry) => !first.includes(entry));
    // Then the blocks near the viewport, then the rest, in document order within each.
    const near = (element: Element) => {
      const rect = element.getBoundingClientRect();
      return rect.bottom > -innerHeight && rect.top < 2 * innerHeight;
    };
    rest.sort(([a], [b]) => Number(near(b)) - Number(near(a)));
    if (first.length > 0) this.request(first, true);
    if (rest.length > 0) this.request(rest, false);
    this.render();
  }

  private request(entries: [Element, Block][], now: boolean): void {
    if (this.stoppedWith) return;
    const items: PageTranslationItem[] = entries.map(([element, block]) => {
      const key = `b${this.counter++}`;
      block.key = key;
      block.sends++;
      block.lastSent = Date.now();
      block.failed = false;
      this.byKey.set(key, element);
      return { key, text: block.text };
    });
    this.post({ type: 'translate', items, now });
  }

  private show(element: Element, block: Block, text: string): void {
    block.translation?.remove();
    const outer = document.createElement('span');
    outer.className = `lcs-translation${{ heading: ' lcs-heading', cell: ' lcs-cell', prose: '' }[kindOf(element)]}`;
    outer.setAttribute('translate', 'no');
    const inner = document.createElement('span');
    if (this.language) {
      inner.lang = this.language.lang;
      inner.dir = this.language.dir;
    }
    inner.append(restoreTranslation(text, block.pieces));
    outer.append(inner);
    ownNodes.add(outer);
    element.append(outer);
    block.translation = outer;
    void this.known.then((expressions) => {
      const { underlines, cardIds } = knownIn(element, expressions);
      if (underlines.length > 0) this.ui.underline(underlines);
      this.met(cardIds);
    });
  }

  // Cards underlined for the first time in this page view go to the service worker, which counts them if the learner turned that on.
  private met(cardIds: ReadonlySet<string>): void {
    const fresh = [...cardIds].filter((id) => !this.metCards.has(id));
    if (fresh.length === 0) return;
    for (const id of fresh) this.metCards.add(id);
    ask({ type: 'met', pageViewId: this.pageViewId, cardIds: fresh }).catch(() => {});
  }

  private forget(element: Element, block: Block): void {
    clearTimeout(block.retryTimer);
    if (block.key) this.byKey.delete(block.key);
    this.blocks.delete(element);
  }

  private receive(message: PageTranslationPortMessage): void {
    switch (message.type) {
      case 'translated':
        // Put in the page together, in one frame: each paragraph below moves once, not once per block.
        this.arrived.push(message);
        this.arrivalFrame ||= requestAnimationFrame(() => this.showArrived());
        return;
      case 'language':
        this.language = { lang: message.tag, dir: direction(message.tag) };
        return;
      case 'trouble':
        this.trouble = message.trouble;
        break;
      case 'gave-up':
        this.failedTrouble = message.trouble;
        for (const key of message.keys) {
          const element = this.byKey.get(key);
          const block = element && this.blocks.get(element);
          this.byKey.delete(key);
          if (block?.key === key) {
            block.key = null;
            block.failed = true;
          }
        }
        break;
      case 'stopped':
        // Nothing more is asked for, but the blocks keep their keys: a batch already in flight was
        // charged, and its answer, delivered after this, is still shown where it belongs.
        this.stoppedWith = { message: message.message, ...(message.link ? { link: message.link } : {}) };
        break;
    }
    this.render();
  }

  private showArrived(): void {
    this.arrivalFrame = 0;
    for (const { key, text } of this.arrived.splice(0)) {
      const element = this.byKey.get(key);
      this.byKey.delete(key);
      const block = element && this.blocks.get(element);
      if (!element || !block || block.key !== key) continue;
      block.key = null;
      this.cache.set(block.text, text);
      if (element.isConnected) this.show(element, block, text);
    }
    this.render();
  }

  // Retry: the blocks whose retries ran out are asked for again.
  private retry(): void {
    const failed = [...this.blocks].filter(([element, block]) => block.failed && element.isConnected);
    if (failed.length > 0) this.request(failed, true);
    this.render();
  }

  // The switch, with what is going on in one line: said on a change of state only.
  private render(): void {
    if (!this.started) return;
    let waiting = 0;
    let failed = 0;
    for (const block of this.blocks.values()) {
      if (block.key) waiting++;
      if (block.failed) failed++;
    }
    const paragraphs = (n: number) => `${n} ${n === 1 ? 'paragraph' : 'paragraphs'}`;
    let status = '';
    let state: 'ok' | 'trouble' | 'failed' = 'ok';
    let action: ToastAction | undefined;
    if (this.stoppedWith) {
      status = `Translation stopped. ${this.stoppedWith.message}`;
      state = 'failed';
      action = linkActions(this.stoppedWith.link)[0];
    } else if (failed > 0 && waiting === 0) {
      status = `${paragraphs(failed)} could not be translated: ${TROUBLE_WORDS[this.failedTrouble]}.`;
      state = 'failed';
      action = { label: 'Retry', run: () => this.retry() };
    } else if (this.trouble && waiting > 0) {
      status = `${paragraphs(waiting)} ${waiting === 1 ? 'is' : 'are'} waiting: ${TROUBLE_WORDS[this.trouble]}; retrying.`;
      state = 'trouble';
    } else if (waiting > 0) status = `Translating… ${waiting} left`;
    const said = JSON.stringify([status, state, action?.label, this.showingOriginal]);
    if (said === this.lastSwitch) return;
    this.lastSwitch = said;
    this.ui.showSwitch({ showingOriginal: this.showingOriginal, status, state, ...(action ? { action } : {}) }, () => this.toggle());
  }
}

// Whether `node` is inside a translation the extension put into the page.
function insideOwn(node: Node): boolean {
  for (let at: Node | null = node; at; at = at.parentNode) if (isExtensionNode(at)) return true;
  return false;
}
const onlyOwn = (nodes: NodeList) => Array.from(nodes).every((node) => isExtensionNode(node));

// The writing direction of a language (Arabic, Hebrew, Persian, Urdu, … are right-to-left).
export function direction(tag: string): 'ltr' | 'rtl' {
  try {
    const locale = new Intl.Locale(tag) as Intl.Locale & { getTextInfo?: () => { direction: string }; textInfo?: { direction: string } };
    return (locale.getTextInfo?.() ?? locale.textInfo)?.direction === 'rtl' ? 'rtl' : 'ltr';
  } catch {
    return 'ltr';
  }
}
