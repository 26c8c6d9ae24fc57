import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTURE_TEXT_MAX } from '../../../src/domain/limits.ts';
import { useStack } from '../../support/fixture.ts';
import type { Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { dragSelect, extensionUi, launchExtension, serveFixtures, type Extension } from './harness.ts';
import { api, bodyOf } from '../../support/api.ts';
import { setBalance } from '../library/helpers.ts';

// The extension's options page and capture, in Chromium, against the real service and the fake
// provider: the learner pastes a token, checks the connection, selects text and captures it.

const SCREENS = 'test-results/screens';

let stack: Stack;
let user: TestUser;
useStack((started) => ({ stack, user } = started));

let extension: Extension;
let fixtures: Awaited<ReturnType<typeof serveFixtures>>;
beforeAll(async () => {
  [extension, fixtures] = await Promise.all([launchExtension(), serveFixtures()]);
  mkdirSync(SCREENS, { recursive: true });
});
afterAll(async () => {
  await extension?.close();
  await fixtures?.close();
});

async function openOptions(): Promise<Page> {
  const page = await extension.context.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`chrome-extension://${extension.id}/src/options/index.html`);
  return page;
}

async function checkConnection(serviceUrl: string, token: string): Promise<{ page: Page; outcome: string }> {
  const page = await openOptions();
  await page.getByLabel('Service URL').fill(serviceUrl);
  await page.getByLabel('Token').fill(token);
  await page.getByRole('button', { name: 'Check connection' }).click();
  const status = page.getByRole('status');
  await expect.poll(() => status.textContent()).not.toMatch(/^(Checking…)?$/);
  return { page, outcome: (await status.textContent())! };
}

/** Selects the text of `selector`'s element with a real drag, and presses the Capture button that appears beside it. */
async function captureByButton(page: Page, selector: string): Promise<void> {
  await dragSelect(page, selector);
  const ui = extensionUi(page);
  await expect.poll(() => ui.shown('.capture'), { timeout: 10_000 }).toBe(true);
  await ui.click('.capture');
}

const toast = (page: Page) => ({ textContent: () => extensionUi(page).toast() });

async function openArticle(): Promise<Page> {
  const page = await extension.context.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(fixtures.url('article.html'));
  return page;
}

describe('options page', () => {
  it('stores the URL and token, and Check connection shows the account, its languages and credits', async () => {
    const { page, outcome } = await checkConnection(stack.baseUrl, user.token);
    expect(outcome).toBe(`Connected as ${user.email}. Learning English, translating into French. 500 credits left.`);
    // Chromium gives site access at install: onboarding says so and offers nothing to allow (firefox.test.ts revokes it).
    expect(await page.locator('#site-access-status').textContent()).toMatch(/^Allowed: /);
    expect(await page.locator('#allow-sites').isHidden()).toBe(true);
    await page.screenshot({ path: `${SCREENS}/extension-options.png` });
    // Local storage only: nothing in sync storage, where the token would follow the browser account.
    const stored = await page.evaluate(async () => ({
      local: await (globalThis as any).chrome.storage.local.get(null),
      sync: await (globalThis as any).chrome.storage.sync.get(null),
    }));
    expect(stored.local).toMatchObject({ serviceUrl: stack.baseUrl, token: user.token });
    expect(stored.sync).toEqual({});
    await page.reload();
    await expect.poll(() => page.getByLabel('Token').inputValue()).toBe(user.token);
    await page.close();
  });

  it('says in plain words why not: a refused token, languages not set, a service that is not there', async () => {
    const refused = await checkConnection(stack.baseUrl, 'lcp_not-a-real-token');
    expect(refused.outcome).toMatch(/did not accept the token/);
    const newcomer = await newUser(stack, { languages: null });
    const noLanguages = await checkConnection(stack.baseUrl, newcomer.token);
    expect(noLanguages.outcome).toMatch(new RegExp(`Connected as ${newcomer.email}, but your languages are not set yet`));
    const away = await checkConnection('http://127.0.0.1:9', user.token);
    expect(away.outcome).toMatch(/The service at http:\/\/127\.0\.0\.1:9 cannot be reached/);
    await Promise.all([refused.page.close(), noLanguages.page.close(), away.page.close()]);
  });
});

describe('options page: address and shortcuts', () => {
  it('refuses a plain http:// service beyond this machine, saying https is required, and stores nothing', async () => {
    await extension.configure({ serviceUrl: stack.baseUrl, token: user.token });
    const page = await openOptions();
    await page.getByLabel('Service URL').fill('http://lcs.example.org');
    await page.getByLabel('Token').fill('lcp_would-travel-in-clear');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(/must start with https:\/\/.*Try https:\/\/lcs\.example\.org/);
    expect(await page.getByLabel('Service URL').getAttribute('aria-invalid')).toBe('true');
    await page.screenshot({ path: `${SCREENS}/extension-options-https.png`, fullPage: true });
    const stored = await page.evaluate(() => (globalThis as any).chrome.storage.local.get(null));
    expect(stored).toMatchObject({ serviceUrl: stack.baseUrl, token: user.token });
    await page.close();
  });

  it('suggests shortcuts Chromium actually assigns, lists them, and opens the browser’s shortcuts page', async () => {
    const page = await openOptions();
    const commands = await page.evaluate(() => (globalThis as any).chrome.commands.getAll());
    expect(Object.fromEntries(commands.map((c: { name: string; shortcut: string }) => [c.name, c.shortcut]))).toMatchObject({
      'capture-selection': 'Alt+Shift+S',
      'translate-page': 'Alt+Shift+L',
    });
    await expect
      .poll(() => page.locator('#shortcuts li').allInnerTexts())
      .toEqual(['Alt+Shift+S Capture the selected text to your library', 'Alt+Shift+L Translate this page, or switch between bilingual and original']);
    const opened = extension.context.waitForEvent('page');
    await page.getByRole('button', { name: 'Change shortcuts' }).click();
    expect((await opened).url()).toBe('chrome://extensions/shortcuts');
    await (await opened).close();
    await page.close();
  });
});

describe('capture', () => {
  it('turns a selection into a card with the floating Capture button, and the toast follows it until its translation is ready', async () => {
    await extension.configure({ serviceUrl: stack.baseUrl, token: user.token });
    const page = await openArticle();
    await captureByButton(page, '#second strong');
    // The button leaves once pressed, and does not come back for the same selection.
    await expect.poll(() => extensionUi(page).shown('.capture')).toBe(false);
    await expect.poll(() => toast(page).textContent(), { timeout: 30_000 }).toBe('Saved: [fr] a drop in the ocean');
    await page.screenshot({ path: `${SCREENS}/extension-toast.png` });
    const library = bodyOf(await api(stack, { token: user.token }).GET('/api/library'), 200);
    expect(library.items.map((card) => card.text)).toContain('a drop in the ocean');

    await page.mouse.click(5, 5); // elsewhere: the selection goes
    await captureByButton(page, '#second strong');
    await expect.poll(() => toast(page).textContent()).toBe('Already in your library: [fr] a drop in the ocean');
    await page.close();
  });

  it(`saves a selection longer than ${CAPTURE_TEXT_MAX} characters as a sentence`, async () => {
    const page = await openArticle();
    await captureByButton(page, 'article');
    await expect.poll(() => toast(page).textContent(), { timeout: 30_000 }).toMatch(/^Saved as a sentence: \[fr\] City council backs/);
    const sentences = bodyOf(await api(stack, { token: user.token }).GET('/api/sentences'), 200);
    expect(sentences.items[0]!.original_text).toMatch(/^City council backs the riverside plan/);
    await page.close();
  });

  it('sends the page text only: no address, no title', async () => {
    const page = await openArticle();
    const sent: string[] = [];
    extension.context.on('request', (request) => {
      if (request.url().startsWith(stack.baseUrl)) sent.push(`${request.url()} ${request.postData() ?? ''}`);
    });
    await captureByButton(page, '#lead b');
    await expect.poll(() => toast(page).textContent(), { timeout: 30_000 }).toMatch(/^Saved/);
    for (const line of sent) expect(line).not.toMatch(/article\.html|riverside plan/);
    await page.close();
  });

  it('says why not: languages to set (with a way to the options), a refused token', async () => {
    const newcomer = await newUser(stack, { languages: null });
    await extension.configure({ serviceUrl: stack.baseUrl, token: newcomer.token });
    const page = await openArticle();
    await captureByButton(page, '#lead b');
    await expect.poll(() => toast(page).textContent()).toMatch(/Set your languages first/);
    // The languages are set in the web app: its settings screen opens from the toast.
    const settings = extension.context.waitForEvent('page');
    await extensionUi(page).click('.toast button', 'Set your languages');
    expect((await settings).url()).toBe(`${stack.baseUrl}/settings`);
    await (await settings).close();

    await extension.configure({ serviceUrl: stack.baseUrl, token: 'lcp_revoked' });
    await page.mouse.click(5, 5);
    await captureByButton(page, '#lead b');
    await expect.poll(() => toast(page).textContent()).toMatch(/did not accept the token/);
    await expect.poll(() => extensionUi(page).text('.toast button')).toBe('Open options');
    await page.close();
    await extension.configure({ serviceUrl: stack.baseUrl, token: user.token });
  });

  it('at 0 credits says the credits are used up, when they renew, with a way to the Credits screen', async () => {
    const broke = await newUser(stack);
    await setBalance(stack, broke.userId, 0);
    await extension.configure({ serviceUrl: stack.baseUrl, token: broke.token });
    const page = await openArticle();
    await captureByButton(page, '#lead b');
    await expect.poll(() => toast(page).textContent(), { timeout: 30_000 }).toMatch(/Your credits are used up until \d{1,2} [A-Z][a-z]+/);
    expect(await toast(page).textContent()).not.toMatch(/preparing it failed/);
    await page.screenshot({ path: `${SCREENS}/extension-toast-credits.png` });
    const credits = extension.context.waitForEvent('page');
    await extensionUi(page).click('.toast button', 'Credits');
    expect((await credits).url()).toBe(`${stack.baseUrl}/credits`);
    await (await credits).close();
    await page.close();
    await extension.configure({ serviceUrl: stack.baseUrl, token: user.token });
  });
});
