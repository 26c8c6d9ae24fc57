import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { firefoxExtensionDir } from '../../../extension/build.ts';
import { api, bodyOf } from '../../support/api.ts';
import { useStack } from '../../support/fixture.ts';
import type { Stack } from '../../support/stack.ts';
import { balanceOf, newUser, type TestUser } from '../../support/users.ts';
import { waitForStatus } from '../library/helpers.ts';
import { EXTENSION_UUID, firefoxInstalled, launchFirefox, PAINTED, shownBox, type Firefox, type FirefoxTab } from './firefox.ts';
import { recordingProxy, SCREENS, serveFixtures } from './harness.ts';

// The Firefox build (dist/extension-firefox) in Debian's Firefox ESR, installed as a temporary
// add-on over WebDriver BiDi, against the real service and the fake provider: onboarding's site
// access, the options saved, a capture, a page translated, the hostile page of hostile.test.ts
// with the same outcome as in Chromium, and captions as captions.test.ts shows them (a WebVTT
// line and YouTube's drawn line captured with their sentence, bilingual captions). One Firefox
// and one stack for the file.

const installed = firefoxInstalled();
if (!installed)
  console.error('\n[firefox] SKIPPED: /usr/bin/firefox-esr is missing. bin/with-toolchain.sh installs it (apt-get, as root) unless SKIP_FIREFOX is set.\n');

/** The machine is shared and loaded: a step waits as long as a learner might, never a fixed time. */
const SLOW = { timeout: 30_000 };

let stack: Stack;
useStack((started) => ({ stack } = started), { fakeCost: '0.002' });
let firefox: Firefox;
let fixtures: Awaited<ReturnType<typeof serveFixtures>>;
let proxy: Awaited<ReturnType<typeof recordingProxy>>;
/** The extension's options page, as the learner opens it: where the chrome.* APIs are. */
let options: FirefoxTab;
beforeAll(async () => {
  if (!installed) return;
  [firefox, fixtures, proxy] = await Promise.all([launchFirefox(), serveFixtures(), recordingProxy(stack.baseUrl)]);
  mkdirSync(SCREENS, { recursive: true });
  await firefox.installExtension(firefoxExtensionDir);
});
afterAll(async () => {
  await firefox?.close();
  await fixtures?.close();
  await proxy?.close();
});

/** Tells the tab showing `url` a command, as the toolbar popup or a shortcut does; whether its content script was there to take it. */
const tellTab = (url: string, type: string) =>
  options.evaluate<boolean>(
    // Firefox's URL patterns take no port: the tab is found by its address.
    `chrome.tabs.query({}).then((tabs) => tabs.find((tab) => tab.url === ${JSON.stringify(url)}))` +
      `.then((tab) => chrome.tabs.sendMessage(tab.id, { type: ${JSON.stringify(type)} })).then(() => true, () => false)`,
  );
const statusOf = (tab: FirefoxTab, selector: string) => tab.evaluate<string>(`document.querySelector(${JSON.stringify(selector)}).textContent`);
/** A real click in the middle of the element `selector` of a tab, once it sits still there (nothing covers or moves it). */
async function press(tab: FirefoxTab, selector: string): Promise<void> {
  await tab.activate();
  const box = await vi.waitFor(async () => {
    const found = await tab.evaluate<{ x: number; y: number; hit: boolean } | null>(`(async () => {
      const element = document.querySelector(${JSON.stringify(selector)});
      element.scrollIntoView({ block: 'center' });
      await ${PAINTED};
      const box = element.getBoundingClientRect();
      const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
      return { x, y, hit: element.contains(document.elementFromPoint(x, y)) };
    })()`);
    if (!found?.hit) throw new Error(`${selector} is not where a click would reach it`);
    return found;
  }, SLOW);
  await tab.click(box.x, box.y);
}
/** A real click on the extension's own button, in its closed layer. */
async function pressInLayer(tab: FirefoxTab, selector: string): Promise<void> {
  const box = (await tab.inLayer<{ x: number; y: number; width: number; height: number }>(shownBox(selector)))!;
  await tab.click(box.x + box.width / 2, box.y + box.height / 2);
}
const layerText = async (tab: FirefoxTab, selector: string) => (await tab.inLayer<{ text: string }>(shownBox(selector)))?.text ?? '';
const screen = async (tab: FirefoxTab, name: string) => tab.screenshot(path.join(SCREENS, `firefox-${name}.png`));
/** Where a drag over `words`, in the layer's element `selector`, starts and ends (their first and last characters). */
const wordsInLayer = (selector: string, words: string) => `(root) => {
  const walker = document.createTreeWalker(root.querySelector(${JSON.stringify(selector)}), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.data.indexOf(${JSON.stringify(words)});
    if (at === -1) continue;
    const rect = (from) => {
      const range = document.createRange();
      range.setStart(node, from);
      range.setEnd(node, from + 1);
      return range.getBoundingClientRect();
    };
    const first = rect(at), last = rect(at + ${words.length} - 1);
    return { from: { x: first.left + 1, y: first.top + first.height / 2 }, to: { x: last.right - 1, y: last.top + last.height / 2 } };
  }
  return null;
}`;
/** Selects `words` in the caption layer's line with a real drag, screenshots it as `shot`, presses Capture: what was sent to /api/library. */
async function captureFromCaption(tab: FirefoxTab, words: string, shot: string): Promise<unknown[]> {
  const ends = (await tab.inLayer<{ from: { x: number; y: number }; to: { x: number; y: number } }>(wordsInLayer('.captions .line', words)))!;
  await tab.drag(ends.from, ends.to);
  await expect.poll(() => tab.inLayer(shownBox('.captions .capture-caption')), SLOW).not.toBeNull();
  await screen(tab, shot);
  const from = proxy.exchanges.length;
  await pressInLayer(tab, '.captions .capture-caption');
  await expect.poll(() => layerText(tab, '.toast .text'), SLOW).toMatch(/^Saved/);
  return proxy.exchanges
    .slice(from)
    .filter((e) => e.path === '/api/library' && e.requestBody !== null)
    .map((e) => e.requestBody);
}

describe.runIf(installed)('the extension in Firefox', () => {
  let learner: TestUser;
  beforeAll(async () => {
    // German, not the suite's French: translations are cached by text and language across the suite's files, and
    // translation.test.ts needs article.html's French to be new when it runs.
    learner = await newUser(stack, { languages: { targetLanguage: 'en', nativeLanguage: 'de' } });
  });

  it('is built as a Firefox MV3 package (an event page, a gecko id) that web-ext lint finds clean', async () => {
    const manifest = JSON.parse(readFileSync(path.join(firefoxExtensionDir, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ manifest_version: 3, background: { scripts: [expect.any(String)] } });
    expect(manifest.background.service_worker).toBeUndefined();
    expect(manifest.browser_specific_settings.gecko.id).toBe('language-capture@lcs.invalid');
    const lint = await promisify(execFile)(
      process.execPath,
      ['node_modules/web-ext/bin/web-ext.js', 'lint', '--source-dir', firefoxExtensionDir, '--output', 'json', '--no-config-discovery'],
      { env: { ...process.env, NO_UPDATE_NOTIFIER: '1' } },
    );
    const report = JSON.parse(lint.stdout);
    expect({ errors: report.errors, warnings: report.warnings, notices: report.notices }).toEqual({ errors: [], warnings: [], notices: [] });
  });

  it('onboarding asks for site access: without it the options, the popup and the toolbar say so; one click grants it', async () => {
    // Not connected yet: a capture's toast sends the learner to the options (Firefox gave site access at install).
    const first = await firefox.newTab(fixtures.url('article.html'));
    await first.dragSelect('#lead > b');
    await expect.poll(() => first.inLayer(shownBox('.capture')), SLOW).not.toBeNull();
    await pressInLayer(first, '.capture');
    await expect.poll(() => layerText(first, '.toast .actions button'), SLOW).toBe('Open options');
    await pressInLayer(first, '.toast .actions button');
    const optionsPage = `moz-extension://${EXTENSION_UUID}/src/options/index.html`;
    await expect.poll(async () => (await firefox.tabs()).some((tab) => tab.url === optionsPage), SLOW).toBe(true);
    options = firefox.tab((await firefox.tabs()).find((tab) => tab.url === optionsPage)!.context);
    await first.close();
    await expect.poll(() => statusOf(options, '#site-access-status'), SLOW).toMatch(/^Allowed: the extension may read the pages you open/);

    await options.evaluate(`chrome.permissions.remove({ origins: ['<all_urls>'] })`);
    await expect
      .poll(() => statusOf(options, '#site-access-status'), SLOW)
      .toMatch(/^Not allowed: your browser has not given the extension access to websites/);
    expect(await options.evaluate(`chrome.action.getBadgeText({})`)).toBe('!');
    await options.evaluate(`chrome.tabs.create({ url: chrome.runtime.getURL('src/popup/index.html') })`);
    await expect.poll(async () => (await firefox.tabs()).some((tab) => tab.url.endsWith('/popup/index.html')), SLOW).toBe(true);
    const popup = firefox.tab((await firefox.tabs()).find((tab) => tab.url.endsWith('/popup/index.html'))!.context);
    await expect.poll(() => popup.evaluate(`document.querySelector('#no-site-access').hidden`), SLOW).toBe(false);
    expect(await statusOf(popup, '#no-site-access')).toBe('No access to websites: the extension cannot capture or translate on this page.');
    await screen(popup, 'popup-no-site-access');
    await popup.close();
    await screen(options, 'options-site-access');

    await press(options, '#allow-sites'); // a real click: permissions.request needs the learner's gesture
    await expect.poll(() => statusOf(options, '#site-access-status'), SLOW).toMatch(/^Allowed: the extension may read the pages you open/);
    expect(await options.evaluate(`chrome.action.getBadgeText({})`)).toBe('');
    // Pages opened from now on have the content script (a command reaches it).
    const article = await firefox.newTab(fixtures.url('article.html'));
    await expect.poll(() => tellTab(fixtures.url('article.html'), 'toggle-translation'), SLOW).toBe(true);
    await article.close();
  });

  it('saves the options, captures a selection with its Capture button, and translates a page', async () => {
    for (const [selector, value] of [
      ['#service-url', proxy.url],
      ['#token', learner.token],
    ]) {
      await press(options, selector!);
      await options.evaluate(`document.querySelector('${selector}').select()`); // typing replaces what is there
      await options.type(value!);
    }
    await press(options, '#check');
    await expect
      .poll(() => statusOf(options, '#outcome'), SLOW)
      .toBe(`Connected as ${learner.email}. Learning English, translating into German. 500 credits left.`);
    await screen(options, 'options');
    expect(await options.evaluate(`chrome.storage.local.get(['serviceUrl', 'token'])`)).toEqual({ serviceUrl: proxy.url, token: learner.token });

    const url = fixtures.url('article.html');
    const article = await firefox.newTab(url);
    // Selected once more if the Capture button has not shown: a selection made before the content script has loaded goes
    // unseen, as a learner's would (it failed here once in a full run), and they would select again.
    for (let tries = 1; ; tries++) {
      await article.dragSelect('#lead > b');
      const shown = await expect
        .poll(() => article.inLayer(shownBox('.capture')), { timeout: 10_000 })
        .not.toBeNull()
        .then(
          () => true,
          (error: unknown) => {
            if (tries === 3) throw error;
            return false;
          },
        );
      if (shown) break;
    }
    await pressInLayer(article, '.capture');
    await expect.poll(() => layerText(article, '.toast .text'), SLOW).toBe('Saved: [de] go ahead with');
    await screen(article, 'capture');
    const library = bodyOf(await api(stack, { token: learner.token }).GET('/api/library'), 200).items.map((card) => card.text);
    expect(library).toEqual(['go ahead with']);

    await expect.poll(() => tellTab(url, 'translate-page'), SLOW).toBe(true);
    await expect.poll(() => article.evaluate(`document.querySelectorAll('.lcs-translation').length`), SLOW).toBeGreaterThanOrEqual(5);
    expect(await article.evaluate(`document.querySelector('#lead .lcs-translation').textContent`)).toMatch(/^\[de\] /);
    await screen(article, 'translated');
    await article.close();
  });

  it('gives a hostile page nothing, as in Chromium: nothing captured, spent or readable, and the learner still captures', async () => {
    const learner = await newUser(stack); // a full balance of their own, as in hostile.test.ts
    for (const text of ['A drop in the ocean', 'kicking the can down the road']) {
      const captured = bodyOf(await api(stack, { token: learner.token }).POST('/api/library', { body: { text } }), 200, 202);
      await waitForStatus(stack, learner, captured.card.cardId, 'ready');
    }
    // Both opt-ins on: the page must not be able to trigger an encounter or a capture's context.
    const settings = { serviceUrl: proxy.url, token: learner.token, sendContext: true, countEncounters: true };
    await options.evaluate(`chrome.storage.local.set(${JSON.stringify(settings)})`);
    const library = bodyOf(await api(stack, { token: learner.token }).GET('/api/library'), 200).items.map((card) => card.text);
    const before = await balanceOf(stack, learner);
    const url = `${fixtures.url('hostile.html')}?base=moz-extension://${EXTENSION_UUID}`;
    const page = await firefox.newTab(url);
    const run = (attack: string) => page.evaluate(`window.${attack}()`);
    // The page's world has no extension API at all (Firefox gives pages no `browser`, and no `chrome.runtime` to reach an extension).
    expect(await page.evaluate(`typeof browser === 'undefined' && !(window.chrome && window.chrome.runtime)`)).toBe(true);

    const from = proxy.exchanges.length;
    await run('attackBeforeTranslation');
    await run('attackSelection');
    expect(await page.inLayer(shownBox('.capture'))).toBeNull();
    expect(await page.inLayer(shownBox('.toast'))).toBeNull();
    expect(proxy.exchanges.slice(from)).toEqual([]);
    expect(await balanceOf(stack, learner)).toBe(before);
    expect(await run('spy')).toEqual([]);
    expect(await page.evaluate(`window.report.leaks`)).toEqual([]);

    // The learner translates: the page's second round of attacks captures nothing and spends nothing more.
    await expect.poll(() => tellTab(url, 'translate-page'), SLOW).toBe(true); // once its content script is there
    await expect.poll(() => page.evaluate(`document.querySelectorAll('.lcs-translation:not(#probe)').length`), SLOW).toBe(4);
    const charged = await balanceOf(stack, learner);
    const afterTranslation = proxy.exchanges.length;
    await run('attackSelection');
    const captures = () => proxy.exchanges.slice(from).filter((e) => ['/api/library', '/api/sentences'].includes(e.path) && e.requestBody !== null);
    expect(captures()).toEqual([]);
    expect(proxy.exchanges.slice(afterTranslation).filter((e) => e.path !== '/api/encounters')).toEqual([]);
    expect(await balanceOf(stack, learner)).toBe(charged);

    // The learner's own capture still works, and its answer stays in the closed layer.
    await page.click(5, 5);
    await page.dragSelect('#seeded > b');
    await expect.poll(() => page.inLayer(shownBox('.capture')), SLOW).not.toBeNull();
    await pressInLayer(page, '.capture');
    await expect.poll(() => layerText(page, '.toast .text'), SLOW).toBe('Already in your library: [fr] A drop in the ocean');
    expect(captures()).toHaveLength(1);
    await run('spy');
    await screen(page, 'hostile');
    expect(await page.evaluate(`window.report.leaks`)).toEqual([]);
    expect(bodyOf(await api(stack, { token: learner.token }).GET('/api/library'), 200).items.map((card) => card.text)).toEqual(library);
    await page.close();
  });

  it('captures from a video’s caption line with the line as its sentence, and shows bilingual captions', async () => {
    // As captions.test.ts does in Chromium: fixtures/video.html plays a real video with a WebVTT track.
    const viewer = await newUser(stack, { languages: { targetLanguage: 'en', nativeLanguage: 'de' } });
    await options.evaluate(
      `chrome.storage.local.set(${JSON.stringify({ serviceUrl: proxy.url, token: viewer.token, sendContext: true, linkToMoment: true })})`,
    );
    const page = await firefox.newTab(fixtures.url('video.html'));
    const LINE = '.captions .line';
    const DROP = 'Some said it was only a drop in the ocean.';
    const paused = () => page.evaluate<boolean>(`document.querySelector('video').paused`);
    // The line shows for 1.5 s: the page's video goes back to it until the learner's hover catches it.
    await vi.waitFor(async () => {
      await page.move(5, 5);
      await page.evaluate(`(() => { const video = document.querySelector('video'); video.currentTime = 3.6; return video.play(); })()`);
      await expect.poll(() => layerText(page, LINE), SLOW).toBe(DROP);
      const line = (await page.inLayer<{ x: number; y: number; width: number; height: number }>(shownBox(LINE)))!;
      await page.move(line.x + line.width / 2, line.y + line.height / 2);
      await expect.poll(paused, { timeout: 5_000 }).toBe(true);
      expect(await layerText(page, LINE)).toBe(DROP);
    }, SLOW);
    expect(await captureFromCaption(page, 'a drop in the ocean', 'caption-layer')).toEqual([
      { text: 'a drop in the ocean', context: DROP, sourceUrl: `${fixtures.url('video.html')}#t=3` },
    ]);

    await pressInLayer(page, '.captions .bilingual');
    const shown = `(root) => [root.querySelector('.captions .line').innerText.trim(), root.querySelector('.captions .translation').innerText.trim()]`;
    const translated = async () => {
      const [line, translation] = (await page.inLayer<[string, string]>(shown))!;
      return line !== '' && translation === `[de] ${line}`;
    };
    await expect.poll(translated, SLOW).toBe(true);
    await page.evaluate(`document.querySelector('video').pause()`);
    await expect.poll(translated, SLOW).toBe(true);
    await screen(page, 'bilingual-captions');
    await page.close();
  });

  it('captures from YouTube’s caption markup: hovering the drawn line pauses the video and shows it in the layer', async () => {
    await options.evaluate(`chrome.storage.local.set({ linkToMoment: false })`);
    const page = await firefox.newTab(fixtures.url('youtube-captions.html'));
    const LINE = 'It felt like a drop in the ocean at first.';
    await page.evaluate(`(() => { const video = document.querySelector('video'); video.currentTime = 6.2; return video.play(); })()`);
    const segment =
      `(() => { const found = document.querySelector('.ytp-caption-segment'); if (!found) return null; const box = found.getBoundingClientRect(); ` +
      `return { x: box.x + box.width / 2, y: box.y + box.height / 2, text: found.textContent }; })()`;
    await expect.poll(async () => (await page.evaluate<{ text: string } | null>(segment))?.text, SLOW).toBe(LINE);
    const at = await page.evaluate<{ x: number; y: number }>(segment);
    await page.move(at.x, at.y);
    await expect.poll(() => page.evaluate<boolean>(`document.querySelector('video').paused`), SLOW).toBe(true);
    await expect.poll(() => layerText(page, '.captions .line'), SLOW).toBe(LINE);
    // The link back to the moment is off: the sentence goes, the address does not.
    expect(await captureFromCaption(page, 'felt like', 'youtube-caption-layer')).toEqual([{ text: 'felt like', context: LINE }]);
    await page.close();
  });
});
