import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Debian's Firefox ESR driven over WebDriver BiDi, which Firefox speaks itself: no geckodriver, no
// client library. Puppeteer's Firefox support would launch it too, but cannot reach into a closed
// shadow root; BiDi's serialization can (`includeShadowTree: 'all'`), and the test needs that to
// press the extension's buttons with real input, as the Chromium harness does through CDP.

const FIREFOX = '/usr/bin/firefox-esr';
const GECKO_ID = 'language-capture@lcs.invalid';
export const EXTENSION_UUID = '5f1c2a4e-8d3b-4c6a-9e0f-1a2b3c4d5e6f';

/** Whether Debian's Firefox ESR is there (bin/with-toolchain.sh installs it for the test runner). */
export const firefoxInstalled = () => existsSync(FIREFOX);

/** Quiet, offline, no first-run pages; Firefox adds its own recommended automation preferences. */
const PREFERENCES = {
  'browser.shell.checkDefaultBrowser': false,
  'browser.startup.homepage_override.mstone': 'ignore',
  'datareporting.policy.dataSubmissionEnabled': false,
  'toolkit.telemetry.reportingpolicy.firstRun': false,
  'app.update.disabledForTesting': true,
  'extensions.getAddons.cache.enabled': false,
  'browser.safebrowsing.malware.enabled': false,
  'browser.safebrowsing.phishing.enabled': false,
  // A permission the extension asks for is granted without Firefox's prompt, which headless Firefox
  // cannot show; the request must still come from a real click (Firefox checks the user's gesture first).
  'extensions.webextOptionalPermissionPrompts': false,
  // The extension's internal UUID, fixed, so its pages have a known moz-extension:// address.
  'extensions.webextensions.uuids': JSON.stringify({ [GECKO_ID]: EXTENSION_UUID }),
};

type Json = any;

export interface Firefox {
  send(method: string, params: Json): Promise<Json>;
  /** Installs the unpacked extension as a temporary add-on; its id. */
  installExtension(dir: string): Promise<string>;
  /** The open tabs, with their addresses. */
  tabs(): Promise<{ context: string; url: string }[]>;
  newTab(url: string): Promise<FirefoxTab>;
  tab(context: string): FirefoxTab;
  close(): Promise<void>;
}

/** A tab, driven as a learner would: real (trusted) input, scripts only to read what is shown. */
export interface FirefoxTab {
  context: string;
  goto(url: string): Promise<void>;
  /** Brings the tab to the front, where input goes. */
  activate(): Promise<void>;
  /** Evaluates `expression` in the page's own world; its value as JSON. */
  evaluate<T = unknown>(expression: string): Promise<T>;
  /** Reads into the extension's closed shadow root (BiDi serializes closed roots; the page cannot): `read(root)`'s value. */
  inLayer<T = unknown>(read: string): Promise<T | null>;
  click(x: number, y: number): Promise<void>;
  /** Moves the mouse to (x, y), pressing nothing: a hover. */
  move(x: number, y: number): Promise<void>;
  /** Presses the mouse at `from`, moves to `to` in steps, and releases: a real selection. */
  drag(from: { x: number; y: number }, to: { x: number; y: number }): Promise<void>;
  /** Selects the text of `selector`'s element with a real drag from its first character to its last. */
  dragSelect(selector: string): Promise<void>;
  type(text: string): Promise<void>;
  screenshot(file: string): Promise<void>;
  close(): Promise<void>;
}

/** Starts Firefox headless on a fresh profile and opens a BiDi session to it. */
export async function launchFirefox(): Promise<Firefox> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'lcs-firefox-'));
  writeFileSync(
    path.join(profile, 'user.js'),
    Object.entries(PREFERENCES)
      .map(([name, value]) => `user_pref(${JSON.stringify(name)}, ${JSON.stringify(value)});`)
      .join('\n'),
  );
  const child = spawn(FIREFOX, ['--headless', '--no-remote', '--profile', profile, '--remote-debugging-port', '0', '--width', '1100', '--height', '800'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, MOZ_CRASHREPORTER_DISABLE: '1' },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const address = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stderr.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const found = /WebDriver BiDi listening on (ws:\/\/\S+)/.exec(seen);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`Firefox exited (${code}) before listening: ${seen.slice(-500)}`)));
  });
  const socket = new WebSocket(`${address}/session`);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  let nextId = 1;
  const pending = new Map<number, { resolve(value: Json): void; reject(error: Error): void; method: string }>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data));
    const waiting = message.id === undefined ? undefined : pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if (message.type === 'error') waiting.reject(new Error(`${waiting.method}: ${message.error}: ${message.message}`));
    else waiting.resolve(message.result);
  });
  const send = (method: string, params: Json) =>
    new Promise<Json>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject, method });
      socket.send(JSON.stringify({ id, method, params }));
    });
  await send('session.new', { capabilities: {} });
  const tab = (context: string): FirefoxTab => browserTab(send, context);
  return {
    send,
    tab,
    async tabs() {
      const { contexts } = await send('browsingContext.getTree', { maxDepth: 0 });
      return contexts.map(({ context, url }: { context: string; url: string }) => ({ context, url }));
    },
    async newTab(url) {
      const { context } = await send('browsingContext.create', { type: 'tab' });
      const opened = tab(context);
      await opened.goto(url);
      return opened;
    },
    async installExtension(dir) {
      const { extension } = await send('webExtension.install', { extensionData: { type: 'path', path: dir } });
      return extension;
    },
    async close() {
      await send('browser.close', {}).catch(() => {});
      socket.close();
      if (child.exitCode === null) child.kill();
      await exited;
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

function browserTab(send: Firefox['send'], context: string): FirefoxTab {
  const value = (result: Json) => {
    if (result.type === 'exception') throw new Error(`In the page: ${result.exceptionDetails.text}`);
    return result.result.value;
  };
  // Input goes to the tab in front, as a learner's would.
  const input = async (actions: Json[]) => {
    await send('browsingContext.activate', { context });
    await send('input.performActions', { context, actions });
  };
  const pointer = (actions: Json[]) => input([{ type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' }, actions }]);
  const at = ({ x, y }: { x: number; y: number }) => ({ type: 'pointerMove', x: Math.round(x), y: Math.round(y) });
  return {
    context,
    async goto(url) {
      await send('browsingContext.navigate', { context, url, wait: 'complete' });
    },
    async activate() {
      await send('browsingContext.activate', { context });
    },
    async evaluate(expression) {
      const script = `(async () => JSON.stringify(await (${expression})))()`;
      const json = value(await send('script.evaluate', { target: { context }, expression: script, awaitPromise: true }));
      return json === undefined ? undefined : JSON.parse(json);
    },
    async inLayer(read) {
      // The extension's host: a plain div appended to <html>, after <body>.
      const hosts = await send('script.evaluate', {
        target: { context },
        expression: `[...document.documentElement.children].filter((element) => element.localName === 'div')`,
        awaitPromise: false,
        serializationOptions: { maxDomDepth: 1, includeShadowTree: 'all' },
      });
      for (const host of hosts.result.value ?? []) {
        const root = host.value?.shadowRoot;
        if (root?.value?.mode !== 'closed') continue;
        const result = await send('script.callFunction', {
          target: { context },
          functionDeclaration: `(root) => JSON.stringify((${read})(root) ?? null)`,
          arguments: [{ sharedId: root.sharedId }],
          awaitPromise: true,
        });
        return JSON.parse(value(result));
      }
      return null;
    },
    async click(x, y) {
      await pointer([at({ x, y }), { type: 'pointerDown', button: 0 }, { type: 'pointerUp', button: 0 }]);
    },
    async move(x, y) {
      await pointer([at({ x, y })]);
    },
    async drag(from, to) {
      const steps = Array.from({ length: 8 }, (_, i) => at({ x: from.x + ((to.x - from.x) * (i + 1)) / 8, y: from.y + ((to.y - from.y) * (i + 1)) / 8 }));
      await pointer([at(from), { type: 'pointerDown', button: 0 }, ...steps, { type: 'pointerUp', button: 0 }]);
    },
    async dragSelect(selector) {
      const ends = await this.evaluate<{ from: { x: number; y: number }; to: { x: number; y: number } }>(selectionEnds(selector));
      await this.drag(ends.from, ends.to);
    },
    async type(text) {
      const keys = [...text].flatMap((key) => [
        { type: 'keyDown', value: key },
        { type: 'keyUp', value: key },
      ]);
      await input([{ type: 'key', id: 'keyboard', actions: keys }]);
    },
    async screenshot(file) {
      const { data } = await send('browsingContext.captureScreenshot', { context });
      writeFileSync(file, Buffer.from(data, 'base64'));
    },
    async close() {
      await send('browsingContext.close', { context });
    },
  };
}

/** The element's box in the viewport, from inside the layer (`inLayer`): the first shown match of `selector`. */
export const shownBox = (selector: string) =>
  `(root) => { for (const element of root.querySelectorAll(${JSON.stringify(selector)})) { const box = element.getBoundingClientRect(); ` +
  `if (box.width > 0 && box.height > 0) return { x: box.x, y: box.y, width: box.width, height: box.height, text: element.innerText.trim() }; } return null; }`;

/**
 * A page expression that settles once the page has painted twice: Firefox hit-tests real input on
 * what was last painted, so a click right after a scroll would land where the element used to be.
 */
export const PAINTED = 'new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted)))';

/** Where a drag over `selector`'s text starts and ends (its first and last visible characters), scrolled into view. */
const selectionEnds = (selector: string) => `(async () => {
  const element = document.querySelector(${JSON.stringify(selector)});
  element.scrollIntoView({ block: 'center' });
  await ${PAINTED};
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  const texts = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) if (node.data.trim()) texts.push(node);
  const rectOf = (text, at) => {
    const range = document.createRange();
    range.setStart(text, at);
    range.setEnd(text, at + 1);
    return range.getBoundingClientRect();
  };
  const first = texts[0], last = texts.at(-1);
  const start = rectOf(first, first.data.search(/\\S/)), end = rectOf(last, last.data.trimEnd().length - 1);
  return { from: { x: start.left + 1, y: start.top + start.height / 2 }, to: { x: end.right - 1, y: end.top + end.height / 2 } };
})()`;
