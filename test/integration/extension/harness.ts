import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { extensionDir } from '../../../extension/build.ts';
import { CHROMIUM } from '../../support/browser-server.ts';
import { useStack } from '../../support/fixture.ts';
import type { Stack } from '../../support/stack.ts';

// The built extension loaded unpacked into Debian's Chromium (playwright-core), the fixture pages
// served on 127.0.0.1, and a recording proxy in front of the service that can lose an answer.

const FIXTURES = path.join(import.meta.dirname, 'fixtures');

/** Where the extension tests put the screenshots to look at. */
export const SCREENS = 'test-results/screens';

export interface ExtensionSetUp {
  stack: Stack;
  extension: Extension;
  fixtures: Awaited<ReturnType<typeof serveFixtures>>;
  proxy: Awaited<ReturnType<typeof recordingProxy>>;
}

/**
 * The prelude of an extension test file: its stack (a provider call priced at 0.002 USD, so 6
 * credits a page-translation call), the built extension in Chromium, the fixture pages, and the
 * recording proxy in front of the service; `bind` receives them once started.
 */
export function useExtension(bind: (setUp: ExtensionSetUp) => void): void {
  let stack: Stack;
  useStack((started) => ({ stack } = started), { fakeCost: '0.002' });
  let setUp: ExtensionSetUp | undefined;
  beforeAll(async () => {
    const [extension, fixtures, proxy] = await Promise.all([launchExtension(), serveFixtures(), recordingProxy(stack.baseUrl)]);
    mkdirSync(SCREENS, { recursive: true });
    setUp = { stack, extension, fixtures, proxy };
    bind(setUp);
  });
  afterAll(async () => {
    await setUp?.extension.close();
    await setUp?.fixtures.close();
    await setUp?.proxy.close();
  });
}

export interface Extension {
  context: BrowserContext;
  id: string;
  /** Sets the extension's stored settings, as the options page would. */
  configure(settings: {
    serviceUrl: string;
    token: string;
    autoTranslateSites?: string[];
    sendContext?: boolean;
    countEncounters?: boolean;
    linkToMoment?: boolean;
  }): Promise<void>;
  /** "Translate this page" for the tab showing `url`, as the toolbar popup or the keyboard command says it. */
  translateTab(url: string): Promise<void>;
  /** A command to the tab showing `url`, as the keyboard shortcut sends it (CDP key presses do not reach chrome.commands). */
  tellTab(url: string, command: { type: string }): Promise<void>;
  close(): Promise<void>;
}

/**
 * A Chromium of its own per file, unlike the web files' shared one: an unpacked extension loads
 * only into a persistent context (a profile on disk, which a connected browser cannot make), and
 * its chrome.storage settings and service worker would carry one file's state into the next.
 */
export async function launchExtension(): Promise<Extension> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'lcs-extension-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1100, height: 800 },
    args: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--disable-extensions-except=${extensionDir}`,
      `--load-extension=${extensionDir}`,
    ],
  });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const id = new URL(worker.url()).host;
  /** Runs `run` in an extension page, where the chrome.* APIs are. */
  async function inExtensionPage<A>(run: (arg: A) => unknown, arg: A): Promise<void> {
    const page = await context.newPage();
    await page.goto(`chrome-extension://${id}/src/options/index.html`);
    await page.evaluate(run as (arg: unknown) => unknown, arg as unknown);
    await page.close();
  }
  async function tellTab(url: string, command: { type: string }): Promise<void> {
    await inExtensionPage(
      async ({ pageUrl, command }) => {
        const { chrome } = globalThis as any;
        const [tab] = await chrome.tabs.query({ url: pageUrl });
        await chrome.tabs.sendMessage(tab.id, command);
      },
      { pageUrl: url, command },
    );
  }
  return {
    context,
    id,
    async configure(settings) {
      // The extension page sees the same chrome.storage.local as the service worker.
      await inExtensionPage((values) => (globalThis as any).chrome.storage.local.set(values), {
        autoTranslateSites: [],
        sendContext: false,
        countEncounters: false,
        linkToMoment: false,
        ...settings,
      });
    },
    translateTab: (url) => tellTab(url, { type: 'translate-page' }),
    tellTab,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

const CONTENT_TYPES: Record<string, string> = { '.vtt': 'text/vtt; charset=utf-8', '.webm': 'video/webm' };

/** The fixture pages (and the video and captions of video.html) at http://127.0.0.1:<port>/<name>. */
export async function serveFixtures(): Promise<{ url(name: string): string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const name = path.basename(new URL(req.url ?? '/', 'http://x').pathname);
    try {
      const body = readFileSync(path.join(FIXTURES, name));
      const type = CONTENT_TYPES[path.extname(name)] ?? 'text/html; charset=utf-8';
      // Byte ranges, as a video needs them to seek.
      const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
      if (!range) return res.writeHead(200, { 'content-type': type, 'accept-ranges': 'bytes' }).end(body);
      const start = Number(range[1]);
      const end = Math.min(range[2] ? Number(range[2]) : body.length - 1, body.length - 1);
      res.writeHead(206, { 'content-type': type, 'content-range': `bytes ${start}-${end}/${body.length}` }).end(body.subarray(start, end + 1));
    } catch {
      res.writeHead(404).end();
    }
  });
  await listen(server);
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: (name) => `${base}/${name}`, close: () => closeServer(server) };
}

/**
 * The extension's layer on a page (a closed shadow root: Playwright's locators cannot see into
 * it, and neither can the page). The test reaches it as the learner does: through CDP, which
 * pierces closed roots, reading what is shown and clicking with real (trusted) mouse events.
 */
export function extensionUi(page: Page) {
  let session: Promise<CDPSession> | null = null;
  const cdp = () => (session ??= page.context().newCDPSession(page));
  async function closedRoots(): Promise<number[]> {
    const { root } = await (await cdp()).send('DOM.getDocument', { depth: -1, pierce: true });
    const found: number[] = [];
    const walk = (node: typeof root) => {
      for (const shadow of node.shadowRoots ?? []) {
        if (shadow.shadowRootType === 'closed') found.push(shadow.nodeId);
        walk(shadow);
      }
      for (const child of node.children ?? []) walk(child);
    };
    walk(root);
    return found;
  }
  async function all(selector: string): Promise<number[]> {
    const session = await cdp();
    const ids: number[] = [];
    for (const nodeId of await closedRoots()) {
      const { nodeIds } = await session.send('DOM.querySelectorAll', { nodeId, selector });
      ids.push(...nodeIds);
    }
    return ids;
  }
  async function box(nodeId: number): Promise<{ x: number; y: number; width: number; height: number } | null> {
    try {
      const { model } = await (await cdp()).send('DOM.getBoxModel', { nodeId });
      const [x, y] = model.border as [number, number];
      return model.width > 0 && model.height > 0 ? { x, y, width: model.width, height: model.height } : null;
    } catch {
      return null; // not rendered (hidden)
    }
  }
  async function call<T>(nodeId: number, fn: string): Promise<T> {
    const session = await cdp();
    const { object } = (await session.send('DOM.resolveNode', { nodeId })) as { object: { objectId: string } };
    const { result } = (await session.send('Runtime.callFunctionOn', { objectId: object.objectId, functionDeclaration: fn, returnByValue: true })) as {
      result: { value: T };
    };
    return result.value;
  }
  const ui = {
    /** The shown element's text, or null when it is not shown. */
    async text(selector: string): Promise<string | null> {
      for (const nodeId of await all(selector)) if (await box(nodeId)) return call<string>(nodeId, 'function () { return this.innerText.trim(); }');
      return null;
    },
    async shown(selector: string): Promise<boolean> {
      for (const nodeId of await all(selector)) if (await box(nodeId)) return true;
      return false;
    },
    /** Where the shown element is, in the viewport's coordinates. */
    async box(selector: string) {
      for (const nodeId of await all(selector)) {
        const found = await box(nodeId);
        if (found) return found;
      }
      return null;
    },
    async count(selector: string): Promise<number> {
      return (await all(selector)).length;
    },
    /** A real click on the shown element with this text (or the first shown one). */
    async click(selector: string, text?: string): Promise<void> {
      for (const nodeId of await all(selector)) {
        const at = await box(nodeId);
        if (!at || (text !== undefined && (await call<string>(nodeId, 'function () { return this.innerText.trim(); }')) !== text)) continue;
        await page.mouse.click(at.x + at.width / 2, at.y + at.height / 2);
        return;
      }
      throw new Error(`Nothing shown in the extension's layer matches ${selector}${text ? ` "${text}"` : ''}`);
    },
    /** Selects `words` in the shown element as the learner does: a real mouse drag from their first character to their last. */
    async select(selector: string, words: string): Promise<void> {
      for (const nodeId of await all(selector)) {
        if (!(await box(nodeId))) continue;
        const ends = await call<{ x0: number; y0: number; x1: number; y1: number } | null>(
          nodeId,
          `function () {
            const walker = this.ownerDocument.createTreeWalker(this, 4);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              const at = node.data.indexOf(${JSON.stringify(words)});
              if (at === -1) continue;
              const rect = (from, to) => {
                const range = this.ownerDocument.createRange();
                range.setStart(node, from);
                range.setEnd(node, to);
                return range.getBoundingClientRect();
              };
              const first = rect(at, at + 1);
              const last = rect(at + ${words.length} - 1, at + ${words.length});
              return { x0: first.left + 1, y0: first.top + first.height / 2, x1: last.right - 1, y1: last.top + last.height / 2 };
            }
            return null;
          }`,
        );
        if (!ends) continue;
        await page.mouse.move(ends.x0, ends.y0);
        await page.mouse.down();
        await page.mouse.move((ends.x0 + ends.x1) / 2, ends.y1, { steps: 4 });
        await page.mouse.move(ends.x1, ends.y1, { steps: 4 });
        await page.mouse.up();
        return;
      }
      throw new Error(`No shown ${selector} in the extension's layer holds "${words}"`);
    },
    /** The toast's text, or '' when none shows. */
    toast: async () => (await ui.text('.toast .text')) ?? '',
    /** The switch's status line, or '' when it says nothing. */
    status: async () => (await ui.text('.switch .status')) ?? '',
  };
  return ui;
}

/**
 * Selects the text of `selector`'s element the way a learner does: a real mouse drag from its
 * first character to its last, so the extension sees a trusted pointer release.
 */
export async function dragSelect(page: Page, selector: string): Promise<void> {
  await page.locator(selector).scrollIntoViewIfNeeded();
  // Runs in the page (this project's tests have no DOM types: the page's objects are `any` here).
  const ends = await page.locator(selector).evaluate((element: any) => {
    const doc = element.ownerDocument;
    const walker = doc.createTreeWalker(element, 4 /* NodeFilter.SHOW_TEXT */);
    const texts: any[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) if (node.data.trim()) texts.push(node);
    const rectOf = (text: any, at: number) => {
      const range = doc.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + 1);
      return range.getBoundingClientRect();
    };
    const first = texts[0];
    const last = texts.at(-1);
    const start = rectOf(first, first.data.search(/\S/));
    const end = rectOf(last, last.data.trimEnd().length - 1);
    return { x0: start.left + 1, y0: start.top + start.height / 2, x1: end.right - 1, y1: end.top + end.height / 2 };
  });
  await page.mouse.move(ends.x0, ends.y0);
  await page.mouse.down();
  await page.mouse.move((ends.x0 + ends.x1) / 2, (ends.y0 + ends.y1) / 2, { steps: 4 });
  await page.mouse.move(ends.x1, ends.y1, { steps: 4 });
  await page.mouse.up();
}

interface Exchange {
  path: string;
  status: number;
  requestBody: any;
  responseBody: any;
  replayed: boolean;
  dropped: boolean;
}

/**
 * A proxy to the service that records every exchange. `loseAnswers(n)` makes the next n page
 * translation requests reach the service, whose answer is then thrown away and the connection
 * cut: the network failing after the service did (and charged for) the work.
 */
export async function recordingProxy(target: string) {
  const exchanges: Exchange[] = [];
  let answersToLose = 0;
  let failing: { until: number; status: number } | null = null;
  let cutUntil = 0;
  let hold: { taken: boolean; refuse: number; released: Promise<void>; release: () => void } | null = null;
  const server = createServer((req, res) => void forward(req, res));
  async function forward(req: IncomingMessage, res: ServerResponse) {
    const requestBody = await readAll(req);
    const upstream = new URL(req.url ?? '/', target);
    if (Date.now() < cutUntil) {
      exchanges.push({ path: upstream.pathname, status: 0, requestBody: parse(requestBody), responseBody: null, replayed: false, dropped: true });
      return req.socket.destroy();
    }
    const held = hold && !hold.taken && upstream.pathname === '/api/immersive-translate' ? hold : null;
    if (held) {
      held.taken = true;
      failing = { until: Number.POSITIVE_INFINITY, status: held.refuse };
    }
    if (!held && failing && Date.now() < failing.until && upstream.pathname === '/api/immersive-translate') {
      const problem = { type: 'about:blank', title: 'Service unavailable', status: failing.status, code: 'service_unavailable' };
      exchanges.push({
        path: upstream.pathname,
        status: failing.status,
        requestBody: parse(requestBody),
        responseBody: problem,
        replayed: false,
        dropped: false,
      });
      return res.writeHead(failing.status, { 'content-type': 'application/problem+json', 'retry-after': '1' }).end(JSON.stringify(problem));
    }
    // Recorded in the order the requests came; the answer is filled in when it comes back.
    const exchange: Exchange = { path: upstream.pathname, status: 0, requestBody: parse(requestBody), responseBody: null, replayed: false, dropped: false };
    exchanges.push(exchange);
    const forwarded = httpRequest(upstream, { method: req.method, headers: { ...req.headers, host: upstream.host } }, (answer) => void relay(answer));
    async function relay(answer: IncomingMessage) {
      const responseBody = await readAll(answer);
      if (held) await held.released; // recorded, and passed on, once released
      exchange.dropped = upstream.pathname === '/api/immersive-translate' && answersToLose > 0;
      if (exchange.dropped) answersToLose--;
      Object.assign(exchange, {
        status: answer.statusCode ?? 0,
        responseBody: parse(responseBody),
        replayed: answer.headers['idempotent-replayed'] === 'true',
      });
      if (exchange.dropped) return req.socket.destroy();
      res.writeHead(answer.statusCode ?? 502, answer.headers).end(responseBody);
    }
    forwarded.on('error', () => req.socket.destroy());
    forwarded.end(requestBody);
  }
  await listen(server);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exchanges,
    translations: () => exchanges.filter((e) => e.path === '/api/immersive-translate'),
    loseAnswers(n: number) {
      answersToLose = n;
    },
    /** Page translations answer `status` (the service's own answer never asked for) for the next `ms`. */
    failFor(ms: number, status = 503) {
      failing = { until: Date.now() + ms, status };
    },
    /** The network is lost for the next `ms`: every connection is cut before it reaches the service. */
    cut(ms: number) {
      cutUntil = Date.now() + ms;
    },
    /**
     * The next page translation reaches the service (which answers and charges), but its answer is
     * held until `release()`; every page translation after it answers `status` straight away.
     */
    holdNextThenRefuse(status: number) {
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      hold = { taken: false, refuse: status, released, release };
      return { release };
    },
    heal() {
      hold?.release();
      hold = null;
      failing = null;
      cutUntil = 0;
    },
    close: () => closeServer(server),
  };
}

/** The translations the extension put into the page (one per translated block). */
export const translatedBlocks = (page: Page) => page.locator('.lcs-translation');

async function readAll(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function parse(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
}

const listen = (server: Server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
