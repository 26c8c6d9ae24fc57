import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { extensionDir } from '../../../extension/build.ts';

// The built extension loaded unpacked into Debian's Chromium (playwright-core), the fixture pages
// served on 127.0.0.1, and a recording proxy in front of the service that can lose an answer.

const CHROMIUM = '/usr/bin/chromium';
const FIXTURES = path.join(import.meta.dirname, 'fixtures');

export interface Extension {
  context: BrowserContext;
  id: string;
  /** Sets the extension's stored settings, as the options page would. */
  configure(settings: { serviceUrl: string; token: string; autoTranslateSites?: string[] }): Promise<void>;
  /** "Translate this page" for the tab showing `url`, as the toolbar popup or the keyboard command says it. */
  translateTab(url: string): Promise<void>;
  close(): Promise<void>;
}

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
  return {
    context,
    id,
    async configure(settings) {
      // The extension page sees the same chrome.storage.local as the service worker.
      await inExtensionPage((values) => (globalThis as any).chrome.storage.local.set(values), { autoTranslateSites: [], ...settings });
    },
    async translateTab(url) {
      await inExtensionPage(async (pageUrl) => {
        const { chrome } = globalThis as any;
        const [tab] = await chrome.tabs.query({ url: pageUrl });
        await chrome.tabs.sendMessage(tab.id, { type: 'translate-page' });
      }, url);
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** The fixture pages at http://127.0.0.1:<port>/<name>.html. */
export async function serveFixtures(): Promise<{ url(name: string): string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const name = path.basename(new URL(req.url ?? '/', 'http://x').pathname);
    try {
      const body = readFileSync(path.join(FIXTURES, name));
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await listen(server);
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: (name) => `${base}/${name}`, close: () => closeServer(server) };
}

export interface Exchange {
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
  const server = createServer((req, res) => void forward(req, res));
  async function forward(req: IncomingMessage, res: ServerResponse) {
    const requestBody = await readAll(req);
    const upstream = new URL(req.url ?? '/', target);
    // Recorded in the order the requests came; the answer is filled in when it comes back.
    const exchange: Exchange = { path: upstream.pathname, status: 0, requestBody: parse(requestBody), responseBody: null, replayed: false, dropped: false };
    exchanges.push(exchange);
    const forwarded = httpRequest(upstream, { method: req.method, headers: { ...req.headers, host: upstream.host } }, (answer) => void relay(answer));
    async function relay(answer: IncomingMessage) {
      const responseBody = await readAll(answer);
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
    close: () => closeServer(server),
  };
}

/** The translations the extension put into the page, by the id of their block. */
export const translatedBlocks = (page: Page) => page.locator('[data-lcs-block="translated"]');

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
