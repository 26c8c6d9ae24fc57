import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { Stack } from '../../support/stack.ts';
import { newUser } from '../../support/users.ts';
import { type Extension, type ExtensionSetUp, extensionUi, SCREENS, translatedBlocks, useExtension } from './harness.ts';

// Failures of page translation are said once, kindly, on the page switch (never a toast per batch):
// a service answering 503, retries that run out (then Retry), 429, network loss mid-page and
// credits running out mid-page. Real service and fake provider, behind a proxy that fails on cue.

let stack: Stack;
let extension: Extension;
let fixtures: ExtensionSetUp['fixtures'];
let proxy: ExtensionSetUp['proxy'];
useExtension((setUp) => ({ stack, extension, fixtures, proxy } = setUp));
afterEach(() => proxy.heal());

const FEED_BLOCKS = 4; // the heading and three items (the button is left alone)

/** A new learner whose pages on 127.0.0.1 translate as they open, and the feed opened. */
async function openFeed(): Promise<{ page: Page; ui: ReturnType<typeof extensionUi> }> {
  const learner = await newUser(stack);
  await extension.configure({ serviceUrl: proxy.url, token: learner.token, autoTranslateSites: ['127.0.0.1'] });
  const page = await extension.context.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(fixtures.url('feed.html'));
  return { page, ui: extensionUi(page) };
}

describe('failures, said once and kindly', () => {
  it('503 for 10 s: the switch says the paragraphs are waiting and retried, then they translate', async () => {
    proxy.failFor(10_000, 503);
    const { page, ui } = await openFeed();
    await expect.poll(() => ui.status(), { timeout: 15_000 }).toBe('4 paragraphs are waiting: the service is unavailable; retrying.');
    expect(await ui.shown('.toast')).toBe(false); // said on the switch, not in a toast per batch
    await page.screenshot({ path: `${SCREENS}/extension-switch-retrying.png` });
    await expect.poll(() => translatedBlocks(page).count(), { timeout: 40_000 }).toBe(FEED_BLOCKS);
    await expect.poll(() => ui.status()).toBe('');
    await page.close();
  }, 90_000);

  it('503 beyond the retries: a final state with Retry, which translates the paragraphs once the service is back', async () => {
    proxy.failFor(120_000, 503);
    const { page, ui } = await openFeed();
    await expect.poll(() => ui.status(), { timeout: 60_000 }).toBe('4 paragraphs could not be translated: the service is unavailable.');
    expect(await ui.text('.switch .action')).toBe('Retry');
    await page.screenshot({ path: `${SCREENS}/extension-switch-retry.png` });
    proxy.heal();
    await ui.click('.switch .action', 'Retry');
    await expect.poll(() => translatedBlocks(page).count(), { timeout: 20_000 }).toBe(FEED_BLOCKS);
    await expect.poll(() => ui.status()).toBe('');
    await page.close();
  }, 120_000);

  it('429: the switch says the service asks to slow down, and the paragraphs follow', async () => {
    proxy.failFor(3_000, 429);
    const { page, ui } = await openFeed();
    await expect.poll(() => ui.status(), { timeout: 15_000 }).toBe('4 paragraphs are waiting: the service asks to slow down; retrying.');
    await expect.poll(() => translatedBlocks(page).count(), { timeout: 30_000 }).toBe(FEED_BLOCKS);
    await expect.poll(() => ui.status()).toBe('');
    await page.close();
  }, 60_000);

  it('network loss mid-page: what arrives meanwhile waits ("cannot be reached"), and is translated when the network is back', async () => {
    const { page, ui } = await openFeed();
    await expect.poll(() => translatedBlocks(page).count(), { timeout: 30_000 }).toBe(FEED_BLOCKS);
    proxy.cut(6_000);
    await page.locator('#more').click();
    await expect.poll(() => ui.status(), { timeout: 15_000 }).toBe('3 paragraphs are waiting: the service cannot be reached; retrying.');
    await page.screenshot({ path: `${SCREENS}/extension-switch-offline.png` });
    await expect.poll(() => translatedBlocks(page).count(), { timeout: 40_000 }).toBe(FEED_BLOCKS + 3);
    await expect.poll(() => ui.status()).toBe('');
    await page.close();
  }, 90_000);

  it('402 mid-page: translation stops, saying until when the credits are used up, with a way to the Credits screen', async () => {
    const { page, ui } = await openFeed();
    await expect.poll(() => translatedBlocks(page).count(), { timeout: 30_000 }).toBe(FEED_BLOCKS);
    proxy.failFor(60_000, 402);
    await page.locator('#more').click();
    await expect
      .poll(() => ui.status(), { timeout: 15_000 })
      .toMatch(/^Translation stopped\. Your credits are used up until \d{1,2} [A-Z][a-z]+, so nothing more/);
    expect(await ui.shown('.toast')).toBe(false); // said once: on the switch
    await page.screenshot({ path: `${SCREENS}/extension-switch-credits.png` });
    const credits = extension.context.waitForEvent('page');
    await ui.click('.switch .action', 'Credits');
    expect((await credits).url()).toBe(`${proxy.url}/credits`); // the web app of the service the extension uses
    await (await credits).close();
    expect(await translatedBlocks(page).count()).toBe(FEED_BLOCKS);
    await page.close();
  }, 60_000);

  it('402 while the first batch is in flight: its answer, paid for, is still shown, and nothing more is asked for', async () => {
    // The first batch's answer is held at the proxy until the page has been told translation
    // stopped (the second batch met the 402): the 402 wins the race every time.
    const earlier = proxy.translations().length; // the exchanges of the tests before this one
    const asked = () => proxy.translations().slice(earlier);
    const held = proxy.holdNextThenRefuse(402);
    const learner = await newUser(stack);
    await extension.configure({ serviceUrl: proxy.url, token: learner.token, autoTranslateSites: ['127.0.0.1'] });
    const page = await extension.context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(fixtures.url('hundred.html'));
    const ui = extensionUi(page);
    await expect.poll(() => ui.status(), { timeout: 15_000 }).toMatch(/^Translation stopped\. Your credits are used up/);
    expect(asked().map((e) => e.status)).toEqual([0, 402]); // the first still unanswered
    held.release();
    await expect.poll(() => asked()[0]!.status, { timeout: 15_000 }).toBe(200);
    const paid = asked()[0]!.requestBody.items.length as number;
    expect(paid).toBeGreaterThan(0);
    await expect.poll(() => translatedBlocks(page).count(), { timeout: 15_000 }).toBe(paid);
    expect(asked().map((e) => e.status)).toEqual([200, 402]); // nothing more asked for
    await expect.poll(() => ui.status()).toMatch(/^Translation stopped\./);
    await page.close();
  }, 60_000);
});
