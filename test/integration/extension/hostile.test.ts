import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { extensionDir } from '../../../extension/build.ts';
import { api, bodyOf } from '../../support/api.ts';
import type { Stack } from '../../support/stack.ts';
import { balanceOf, newUser, type TestUser } from '../../support/users.ts';
import { waitForStatus } from '../library/helpers.ts';
import { dragSelect, extensionUi, SCREENS, translatedBlocks, useExtension, type Extension, type ExtensionSetUp } from './harness.ts';

// A hostile page (fixtures/hostile.html) against the built extension, the real service and the
// fake provider: before and after the learner translates it and captures from it, the page tries
// every way in that it has. It must achieve nothing: no request reaches the service because of
// it, no credit moves, nothing of the extension's answers or of the learner's library leaks, and
// the token is out of the content script's reach.

let stack: Stack;
let extension: Extension;
let fixtures: ExtensionSetUp['fixtures'];
let proxy: ExtensionSetUp['proxy'];
useExtension((setUp) => ({ stack, extension, fixtures, proxy } = setUp));
let learner: TestUser;
beforeAll(async () => {
  learner = await newUser(stack);
  for (const text of ['A drop in the ocean', 'kicking the can down the road']) {
    const captured = bodyOf(await api(stack, { token: learner.token }).POST('/api/library', { body: { text } }), 200, 202);
    await waitForStatus(stack, learner, captured.card.cardId, 'ready');
  }
  // Both opt-ins on: the page must not be able to trigger an encounter or a capture's context, nor read either setting.
  await extension.configure({ serviceUrl: proxy.url, token: learner.token, sendContext: true, countEncounters: true });
});

interface Report {
  attempts: string[];
  leaks: { name: string; value: string }[];
  copied?: string;
}
const report = (page: Page) => page.evaluate(() => (globalThis as any).report as Report);
const run = (page: Page, attack: string) => page.evaluate(async (name) => (globalThis as any)[name](), attack);
const captures = () => proxy.exchanges.filter((e) => ['/api/library', '/api/sentences'].includes(e.path) && e.requestBody !== null);
const libraryTexts = async () => bodyOf(await api(stack, { token: learner.token }).GET('/api/library'), 200).items.map((card) => card.text);

/** Every file of the built extension, as the page would ask for it. */
function builtFiles(dir = extensionDir, prefix = ''): string[] {
  return readdirSync(dir).flatMap((name) =>
    statSync(path.join(dir, name)).isDirectory() ? builtFiles(path.join(dir, name), `${prefix}${name}/`) : [`${prefix}${name}`],
  );
}

/** Runs `expression` in the content script's own (isolated) world, as the content script would. */
async function inContentScript(page: Page, expression: string): Promise<{ value?: unknown; error?: string }> {
  const cdp = await page.context().newCDPSession(page);
  const contexts: { id: number; name: string; auxData?: { type?: string } }[] = [];
  cdp.on('Runtime.executionContextCreated', ({ context }) => contexts.push(context));
  await cdp.send('Runtime.enable');
  await expect.poll(() => contexts.some((c) => c.auxData?.type === 'isolated' && c.name === 'Language Capture')).toBe(true);
  const contextId = contexts.find((c) => c.auxData?.type === 'isolated' && c.name === 'Language Capture')!.id;
  const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', { contextId, expression, awaitPromise: true, returnByValue: true });
  await cdp.detach();
  return exceptionDetails ? { error: exceptionDetails.exception?.description ?? exceptionDetails.text } : { value: result.value };
}

describe('a hostile page', () => {
  it('can neither act for the learner nor read anything of theirs, before or after translating, and the learner still can', async () => {
    const before = await balanceOf(stack, learner);
    const library = await libraryTexts();
    const page = await extension.context.newPage();
    page.setDefaultTimeout(20_000);
    const url = `${fixtures.url('hostile.html')}?id=${extension.id}`;
    await page.goto(url);
    const ui = extensionUi(page);

    // The token: a content script cannot read the extension's storage at all.
    const storage = await inContentScript(page, 'chrome.storage.local.get(null).then((all) => JSON.stringify(all))');
    expect(storage.error).toMatch(/Access to storage is not allowed from this context/);
    // Nor the settings one by one (the opt-ins live beside the token).
    const setting = await inContentScript(page, "chrome.storage.local.get(['sendContext', 'countEncounters']).then((all) => JSON.stringify(all))");
    expect(setting.error).toMatch(/Access to storage is not allowed from this context/);

    // Before any translation: probes, the extension's files, messages, forged selection and clicks.
    const from = proxy.exchanges.length;
    await run(page, 'attackBeforeTranslation');
    await run(page, 'attackSelection');
    expect(await ui.shown('.capture')).toBe(false);
    expect(await ui.shown('.toast')).toBe(false);
    expect(proxy.exchanges.slice(from)).toEqual([]);
    expect(await balanceOf(stack, learner)).toBe(before);
    expect(await run(page, 'spy')).toEqual([]); // nothing of the extension to hit, nothing marked
    expect((await report(page)).leaks).toEqual([]);

    // The files the page asked for are every file the extension has: none could be fetched.
    const files = builtFiles().filter((file) => !file.startsWith('.'));
    expect(files).toContain('src/content/index.js');
    const fetched = await page.evaluate(
      async ({ id, files }) =>
        Promise.all(
          files.map((file: string) =>
            fetch(`chrome-extension://${id}/${file}`).then(
              (response) => `${file} ${response.status}`,
              () => null,
            ),
          ),
        ),
      { id: extension.id, files },
    );
    expect(fetched.filter(Boolean)).toEqual([]);

    // The learner translates (the browser's command: trusted). Known expressions are underlined in the extension's layer.
    await extension.translateTab(url);
    await expect.poll(() => translatedBlocks(page).count(), { timeout: 30_000 }).toBe(5); // h1, three paragraphs, and the page's own probe
    await expect.poll(() => ui.count('.marks .mark')).toBeGreaterThanOrEqual(2);
    // The learner's translation underlined their expressions: one batch of encounters for this page view, and no more.
    const encounters = () => proxy.exchanges.filter((e) => e.path === '/api/encounters');
    await expect.poll(() => encounters().length, { timeout: 20_000 }).toBe(1);
    const charged = await balanceOf(stack, learner);
    const afterTranslation = proxy.exchanges.length;
    await run(page, 'attackSelection');
    expect(captures()).toEqual([]);
    expect(proxy.exchanges.slice(afterTranslation)).toEqual([]);
    expect(await balanceOf(stack, learner)).toBe(charged);
    // The switch is the one part that takes the pointer (and so the one place hit-testing finds the layer's host).
    const switchBox = (await ui.box('.switch'))!;
    const inside = (point: string, box: { x: number; y: number; width: number; height: number }) => {
      const [x, y] = point.split(',').map(Number) as [number, number];
      return x >= box.x - 1 && x <= box.x + box.width + 1 && y >= box.y - 1 && y <= box.y + box.height + 1;
    };
    expect((await run(page, 'spy')) as string[]).toSatisfy((hits: string[]) => hits.every((hit) => inside(hit, switchBox)));

    // The learner hovers an underline: the card shows in the layer, and the page cannot read it.
    const underline = (await ui.box('.marks .mark'))!;
    await page.mouse.move(underline.x + underline.width / 2, underline.y + underline.height / 2);
    await expect.poll(() => ui.text('.card')).toMatch(/^\[fr\] /);
    await page.screenshot({ path: `${SCREENS}/extension-hostile-card.png` });
    await run(page, 'spy');

    // The learner captures for real: it works, and the answer stays theirs.
    await page.mouse.click(5, 5);
    await dragSelect(page, '#seeded > b');
    await expect.poll(() => ui.shown('.capture')).toBe(true);
    await ui.click('.capture');
    await expect.poll(() => ui.toast(), { timeout: 30_000 }).toBe('Already in your library: [fr] A drop in the ocean');
    expect(captures()).toHaveLength(1);
    expect(encounters()).toHaveLength(1);
    const toastBox = (await ui.box('.toast'))!;
    const hits = (await run(page, 'spy')) as string[];
    expect(hits.filter((hit) => inside(hit, toastBox))).toEqual([]);
    // Even the learner's own triple-click on the toast selects nothing the page could read or copy.
    await page.evaluate(() => delete (globalThis as any).report.copied);
    await page.mouse.click(toastBox.x + 20, toastBox.y + toastBox.height / 2, { clickCount: 3 });
    await page.keyboard.press('Control+C');
    const selected = await page.evaluate(() => (globalThis as any).document.getSelection().toString() as string);
    expect(selected).not.toMatch(/library|\[fr\]/);
    expect((await report(page)).copied ?? '').not.toMatch(/library|\[fr\]/);
    await page.screenshot({ path: `${SCREENS}/extension-hostile.png` });

    const { attempts, leaks } = await report(page);
    console.info(`[extension] hostile page: ${attempts.length} attempts, ${leaks.length} leaks:\n  - ${[...new Set(attempts)].join('\n  - ')}`);
    expect(leaks).toEqual([]);
    expect(await libraryTexts()).toEqual(library);
    await page.close();
  });
});
