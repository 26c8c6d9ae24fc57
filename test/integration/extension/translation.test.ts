import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PAGE_TRANSLATION_LIMITS } from '../../../src/domain/limits.ts';
import { countCodePoints } from '../../../src/domain/normalise.ts';
import type { Stack } from '../../support/stack.ts';
import { balanceOf, newUser, type TestUser } from '../../support/users.ts';
import { setBalance, waitForStatus } from '../library/helpers.ts';
import { type Extension, type ExtensionSetUp, extensionUi, SCREENS, translatedBlocks, useExtension } from './harness.ts';
import { api, bodyOf } from '../../support/api.ts';

// Pages read bilingually through the extension, in Chromium, against the real service and the
// fake provider (which answers "[fr] <text>" with every placeholder kept), behind a proxy that
// records what the extension sends and can lose an answer on the way back.

let stack: Stack;
let extension: Extension;
let fixtures: ExtensionSetUp['fixtures'];
let proxy: ExtensionSetUp['proxy'];
useExtension((setUp) => ({ stack, extension, fixtures, proxy } = setUp));

/** A new learner whose pages on 127.0.0.1 are translated as they open. */
async function learnerReading(): Promise<TestUser> {
  const learner = await newUser(stack);
  await extension.configure({ serviceUrl: proxy.url, token: learner.token, autoTranslateSites: ['127.0.0.1'] });
  return learner;
}

const translations = translatedBlocks;

/** Opens a fixture page and waits until `blocks` of its blocks carry their translation. */
async function readTranslated(name: string, blocks: number): Promise<Page> {
  const page = await extension.context.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(fixtures.url(name));
  await expect.poll(() => translations(page).count(), { timeout: 30_000 }).toBe(blocks);
  return page;
}

const ARTICLE_BLOCKS = 8; // h1, byline, three paragraphs, the quote, two list items (the nav is left as it is)

describe('page translation', () => {
  it('retries a batch whose answer was lost with the same request_id, and the service charges it once', async () => {
    const learner = await learnerReading();
    const before = await balanceOf(stack, learner);
    const from = proxy.translations().length;
    proxy.loseAnswers(1);
    const page = await readTranslated('article.html', ARTICLE_BLOCKS);
    const sent = proxy.translations().slice(from);
    const lost = sent.find((exchange) => exchange.dropped)!;
    expect(lost.status).toBe(200);
    const retry = sent.find((exchange) => !exchange.dropped && exchange.requestBody.request_id === lost.requestBody.request_id)!;
    expect(retry).toMatchObject({ status: 200, replayed: true });
    expect(retry.requestBody).toEqual(lost.requestBody);
    // Each request_id charged what its first answer said, once: the lost one included.
    const charged = new Map(
      sent.filter((e) => e.status === 200 && !e.replayed).map((e) => [e.requestBody.request_id, e.responseBody.credits_charged as number]),
    );
    const total = [...charged.values()].reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(0);
    expect(before - (await balanceOf(stack, learner))).toBe(total);
    await page.close();
  });

  it('puts the translation under each block with its links and emphasis intact, and a switch shows the original only', async () => {
    await learnerReading();
    const page = await readTranslated('article.html', ARTICLE_BLOCKS);
    const lead = page.locator('#lead .lcs-translation');
    expect(await lead.innerText()).toMatch(/^\[fr\] After months of debate, the council voted on Tuesday to go ahead with the riverside plan/);
    expect(await lead.locator('b').innerText()).toBe('go ahead with');
    expect(await lead.locator('a[href="https://example.org/report"]').innerText()).toBe('bring the old docks back to life');
    expect(await page.locator('#second .lcs-translation strong').innerText()).toBe('a drop in the ocean');
    expect(await page.locator('#second .lcs-translation em').innerText()).toBe('at the eleventh hour');
    await page.screenshot({ path: `${SCREENS}/extension-translated.png`, fullPage: true });

    const ui = extensionUi(page);
    await ui.click('.switch .toggle', 'Show original only');
    await expect.poll(() => translations(page).first().isVisible()).toBe(false);
    await ui.click('.switch .toggle', 'Show translation');
    await expect.poll(() => translations(page).first().isVisible()).toBe(true);
    await page.close();
  });

  it('leaves code, preformatted text, form fields and editable areas as they are', async () => {
    await learnerReading();
    const from = proxy.translations().length;
    const page = await readTranslated('code.html', 4); // h1, the two paragraphs, the editable note's paragraph
    expect(await page.locator('pre .lcs-translation, textarea .lcs-translation').count()).toBe(0);
    expect(await page.locator('#intro .lcs-translation code').innerText()).toBe('readFile');
    expect(await page.locator('#editable').innerText()).toBe('Type your own thoughts here');
    const sentTexts = proxy
      .translations()
      .slice(from)
      .flatMap((e) => e.requestBody.items.map((item: { text: string }) => item.text))
      .join('\n');
    expect(sentTexts).toContain('Use {0} from the promises module');
    for (const hidden of ['notes.txt', 'hello from the file', 'Write the answer', 'Type your own thoughts']) expect(sentTexts).not.toContain(hidden);
    await page.close();
  });

  it('sends a long page near the viewport first, in batches within the limits, and a reload costs nothing', async () => {
    const learner = await newUser(stack);
    await extension.configure({ serviceUrl: proxy.url, token: learner.token });
    const before = await balanceOf(stack, learner);
    const from = proxy.translations().length;
    const page = await extension.context.newPage();
    await page.goto(fixtures.url('long.html'));
    // The learner has scrolled to the 51st paragraph, then asks for the page to be translated.
    await page.locator('#p50').scrollIntoViewIfNeeded();
    const translate = async () => {
      await extension.translateTab(fixtures.url('long.html'));
      await expect.poll(() => translations(page).count(), { timeout: 30_000 }).toBe(65);
    };
    await translate();
    const batches = proxy
      .translations()
      .slice(from)
      .map((e) => e.requestBody.items as { text: string }[]);
    for (const items of batches) {
      expect(items.length).toBeLessThanOrEqual(PAGE_TRANSLATION_LIMITS.maxItems);
      expect(items.reduce((sum, item) => sum + countCodePoints(item.text), 0)).toBeLessThanOrEqual(PAGE_TRANSLATION_LIMITS.maxTotalCodePoints);
    }
    expect(batches[0]!.map((item) => item.text.slice(0, 3))).toContain('51.');
    expect(batches[0]![0]!.text).not.toMatch(/^A long report/);
    const cost = before - (await balanceOf(stack, learner));
    const characters = batches.flat().reduce((sum, item) => sum + countCodePoints(item.text), 0);
    console.info(`long page: ${batches.length} batches, ${batches.flat().length} items, ${characters} characters, ${cost} credits`);
    expect(cost).toBeGreaterThan(0);

    const reloadFrom = proxy.translations().length;
    await page.reload();
    await translate();
    expect(proxy.translations().length).toBeGreaterThan(reloadFrom);
    // The same blocks make the same batches, hence the same request_ids: the stored answers come back.
    const reloaded = proxy
      .translations()
      .slice(reloadFrom)
      .map((e) => ({ status: e.status, charged: e.replayed ? 0 : e.responseBody?.credits_charged }));
    expect(reloaded).toEqual(reloaded.map(() => ({ status: 200, charged: 0 })));
    expect(await balanceOf(stack, learner)).toBe(before - cost);
    await page.close();
  });

  it('stops when the credits are out, and says why', async () => {
    const learner = await learnerReading();
    await setBalance(stack, learner.userId, 0);
    const page = await extension.context.newPage();
    await page.goto(fixtures.url('long.html'));
    const ui = extensionUi(page);
    // Said once, on the switch: the final state, with when the credits renew and the way to the Credits screen.
    await expect.poll(() => ui.status(), { timeout: 30_000 }).toMatch(/^Translation stopped\. Your credits are used up until \d{1,2} [A-Z][a-z]+/);
    expect(await ui.text('.switch .action')).toBe('Credits');
    expect(await ui.shown('.toast')).toBe(false);
    expect(await translations(page).count()).toBe(0);
    await page.close();
  });

  it('translates blocks the page inserts after it loaded', async () => {
    await learnerReading();
    const page = await readTranslated('dynamic.html', 5); // the heading, the first line, three updates
    expect(await page.locator('.update .lcs-translation').allInnerTexts()).toHaveLength(3);
    await page.close();
  });
});

describe('known expressions', () => {
  it('underlines what the learner has in the library, with its translation on hover, asking the service only for the list', async () => {
    const learner = await learnerReading();
    for (const text of ['A drop in the ocean', 'kicking the can down the road']) {
      const captured = bodyOf(await api(stack, { token: learner.token }).POST('/api/library', { body: { text } }), 200, 202);
      await waitForStatus(stack, learner, captured.card.cardId, 'ready');
    }
    const from = proxy.exchanges.length;
    const page = await readTranslated('article.html', ARTICLE_BLOCKS);
    // Drawn in the extension's layer: one underline per line box (the second expression is on one line).
    const ui = extensionUi(page);
    await expect.poll(() => ui.count('.marks .mark')).toBe(2);
    // Nothing of it in the page: no mark, no title.
    expect(await page.locator('mark, [title]').count()).toBe(0);
    const underline = (await ui.box('.marks .mark'))!;
    await page.mouse.move(underline.x + underline.width / 2, underline.y + underline.height / 2);
    await expect.poll(() => ui.text('.card')).toBe('[fr] A drop in the ocean');
    await page.screenshot({ path: `${SCREENS}/extension-known.png` });

    await page.reload();
    await expect.poll(() => extensionUi(page).count('.marks .mark'), { timeout: 30_000 }).toBe(2);
    const lookups = proxy.exchanges.slice(from).filter((e) => e.path === '/api/library/known-expressions');
    expect(lookups.map((e) => e.status)).toEqual([200, 304]);
    expect(lookups.every((e) => e.requestBody === null)).toBe(true);
    await page.close();
  });
});
