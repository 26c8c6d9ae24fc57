import { PAGE_TRANSLATION_PORT, type Link, type PageTranslationPortMessage, type PageTranslationRequest, type Trouble } from '../shared/messages.ts';
import { linkActions } from './links.ts';
import type { BarState } from './caption-layer.ts';
import { direction, TROUBLE_WORDS } from './page-translation.ts';

// Lines a page may have translated per ten minutes: a film's worth of captions (a line every two
// seconds or so), far fewer than a page changing its captions as fast as it can to spend credits.
const LINES_PER_TEN_MINUTES = 400;
const LETTER = /\p{L}/u;

// "Bilingual captions": lines go through page translation (the same port, batching, request ids
// and failures as a page's paragraphs), the line shown and those coming next at once, so each
// line's translation is here before it is. Translations are kept by text (a line seen again is
// free here, and the service's cache makes it free there); an answer that comes after the
// translation was stopped (a 402 met by a later batch) was paid for, and is kept and shown.
export class CaptionTranslation {
  private on = false;
  private port: chrome.runtime.Port | null = null;
  private readonly translated = new Map<string, string>();
  // Texts asked for, by key: kept until their answer comes (even after a stop).
  private readonly asked = new Map<string, string>();
  private readonly failed = new Set<string>();
  private readonly sent: number[] = [];
  private counter = 0;
  private trouble: Trouble | null = null;
  private failedTrouble: Trouble = 'unavailable';
  private stopped: { message: string; link?: Link } | null = null;
  private language: { lang: string; dir: string } | null = null;
  private lastBar = '';
  private readonly showBar: (state: BarState) => void;
  private readonly arrived: () => void;
  private readonly wanted: () => string[];

  // `showBar` says the state; `arrived` hears of each translation; `wanted` names the lines to translate now (shown and coming).
  constructor(handlers: { showBar: (state: BarState) => void; arrived: () => void; wanted: () => string[] }) {
    ({ showBar: this.showBar, arrived: this.arrived, wanted: this.wanted } = handlers);
    this.render();
  }

  // The learner's switch: on, the lines wanted now are asked for at once.
  toggle(): void {
    this.on = !this.on;
    this.render();
    this.want(this.wanted());
    this.arrived();
  }

  // The translation of `line`, once here and while the switch is on.
  of(line: string): string | undefined {
    return this.on ? this.translated.get(line) : undefined;
  }

  // The translation as shown under the line, in the learner's language.
  element(text: string): HTMLElement {
    const span = document.createElement('span');
    span.textContent = text;
    if (this.language) {
      span.lang = this.language.lang;
      span.dir = this.language.dir;
    }
    return span;
  }

  // Lines wanted now: those not translated, asked for or failed go in one batch, sent at once.
  want(lines: readonly string[]): void {
    if (!this.on || this.stopped) return;
    const waiting = new Set(this.asked.values());
    const fresh = [...new Set(lines)].filter((line) => LETTER.test(line) && !this.translated.has(line) && !waiting.has(line) && !this.failed.has(line));
    const now = Date.now();
    while (this.sent.length > 0 && this.sent[0]! < now - 600_000) this.sent.shift();
    const items = fresh.slice(0, Math.max(0, LINES_PER_TEN_MINUTES - this.sent.length)).map((text) => {
      const key = `c${this.counter++}`;
      this.asked.set(key, text);
      this.sent.push(now);
      return { key, text };
    });
    if (items.length > 0) this.post({ type: 'translate', items, now: true });
    this.render();
  }

  private connect(): chrome.runtime.Port {
    if (this.port) return this.port;
    const port = chrome.runtime.connect({ name: PAGE_TRANSLATION_PORT });
    port.onMessage.addListener((message: PageTranslationPortMessage) => this.receive(message));
    port.onDisconnect.addListener(() => {
      // The service worker went away: what was waiting is asked for again.
      this.port = null;
      if (this.stopped || this.asked.size === 0) return;
      const items = [...this.asked].map(([key, text]) => ({ key, text }));
      this.post({ type: 'translate', items, now: true });
    });
    this.port = port;
    return port;
  }

  private post(message: PageTranslationRequest): void {
    this.connect().postMessage(message);
  }

  private receive(message: PageTranslationPortMessage): void {
    switch (message.type) {
      case 'translated': {
        const text = this.asked.get(message.key);
        this.asked.delete(message.key);
        if (text !== undefined) this.translated.set(text, message.text);
        this.arrived();
        break;
      }
      case 'language':
        this.language = { lang: message.tag, dir: direction(message.tag) };
        return;
      case 'trouble':
        this.trouble = message.trouble;
        break;
      case 'gave-up':
        this.failedTrouble = message.trouble;
        for (const key of message.keys) {
          const text = this.asked.get(key);
          this.asked.delete(key);
          if (text !== undefined) this.failed.add(text);
        }
        break;
      case 'stopped':
        // Nothing more is asked for; what is in flight was charged, and is still shown when it comes.
        this.stopped = { message: message.message, ...(message.link ? { link: message.link } : {}) };
        break;
    }
    this.render();
  }

  private retry(): void {
    this.failed.clear();
    this.want(this.wanted());
  }

  // The bar's status, as the page's switch says it: on a change only.
  private render(): void {
    const lines = (n: number) => `${n} ${n === 1 ? 'caption line' : 'caption lines'}`;
    let state: BarState = { bilingual: this.on, status: '', state: 'ok' };
    if (!this.on) state = { bilingual: false, status: '', state: 'ok' };
    else if (this.stopped)
      state = { bilingual: true, status: `Translation stopped. ${this.stopped.message}`, state: 'failed', ...optional(linkActions(this.stopped.link)[0]) };
    else if (this.failed.size > 0 && this.asked.size === 0)
      state = {
        bilingual: true,
        status: `${lines(this.failed.size)} could not be translated: ${TROUBLE_WORDS[this.failedTrouble]}.`,
        state: 'failed',
        action: { label: 'Retry', run: () => this.retry() },
      };
    else if (this.trouble && this.asked.size > 0)
      state = { bilingual: true, status: `${lines(this.asked.size)} waiting: ${TROUBLE_WORDS[this.trouble]}; retrying.`, state: 'trouble' };
    const said = JSON.stringify([state.bilingual, state.status, state.state, state.action?.label]);
    if (said === this.lastBar) return;
    this.lastBar = said;
    this.showBar(state);
  }
}

const optional = <T>(action: T | undefined) => (action ? { action } : {});
