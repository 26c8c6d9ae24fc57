import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, bodyOf } from '../../support/api.ts';
import type { Stack } from '../../support/stack.ts';
import { balanceOf, newUser, type TestUser } from '../../support/users.ts';
import { waitForStatus } from '../library/helpers.ts';
import { extensionUi, useExtension, type Extension, type ExtensionSetUp } from './harness.ts';

// Captions in Chromium, against the real service and the fake provider ("[fr] <text>"): a local
// page with a real short video and a WebVTT track (fixtures/video.html), and a page drawing
// YouTube's caption markup (fixtures/youtube-captions.html). The learner hovers the line (the
// video pauses), selects in it and captures; turns on bilingual captions; a page's script tries
// the same and gets nothing.

let stack: Stack;
let extension: Extension;
let fixtures: ExtensionSetUp['fixtures'];
let proxy: ExtensionSetUp['proxy'];
useExtension((setUp) => ({ stack, extension, fixtures, proxy } = setUp));

/** Where the screenshots of the caption layer go. */
const SHOTS = '/tmp/caption-shots';
mkdirSync(SHOTS, { recursive: true });

const LINE = '.captions .line';
const TRANSLATION = '.captions .translation';
/** How long the service worker gathers a page view's encounters, and a little more. */
const SETTLE_MS = 4_000;
const requestsTo = (from: number, path: string) => proxy.exchanges.slice(from).filter((e) => e.path === path && e.requestBody !== null);

async function open(name: string): Promise<Page> {
  const page = await extension.context.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(fixtures.url(name));
  return page;
}

/** The page's own video jumps to `seconds` (the page's script may: it is the page's video). */
const seek = (page: Page, seconds: number) =>
  page.evaluate((at) => {
    const video = (globalThis as any).document.querySelector('video');
    video.currentTime = at;
    return video.play();
  }, seconds);
const paused = (page: Page) => page.evaluate(() => (globalThis as any).document.querySelector('video').paused as boolean);

/** Hovers the shown line (in the layer, or the site's drawn caption): the video pauses. */
async function hover(page: Page, at: { x: number; y: number; width: number; height: number } | null): Promise<void> {
  expect(at).not.toBeNull();
  await page.mouse.move(at!.x + at!.width / 2, at!.y + at!.height / 2, { steps: 3 });
  await expect.poll(() => paused(page), { timeout: 5_000 }).toBe(true);
}

/** Two lines of fixtures/captions.vtt, and a second into each. */
const FIRST = { seconds: 0.5, line: 'The council talked for hours at the meeting.' };
const DROP = { seconds: 3.6, line: 'Some said it was only a drop in the ocean.' };

/** fixtures/video.html in a new tab, at `at`'s line. */
async function openAt(at: { seconds: number; line: string }): Promise<Page> {
  const page = await open('video.html');
  await seek(page, at.seconds);
  await expect.poll(() => extensionUi(page).text(LINE), { timeout: 10_000 }).toBe(at.line);
  return page;
}

async function newLearnerAt(at: { seconds: number; line: string }, settings: { sendContext?: boolean; linkToMoment?: boolean } = {}) {
  const learner = await newUser(stack);
  await extension.configure({ serviceUrl: proxy.url, token: learner.token, ...settings });
  const page = await openAt(at);
  return { learner, page, ui: extensionUi(page) };
}

async function libraryCard(learner: TestUser, text: string) {
  const { items } = bodyOf(await api(stack, { token: learner.token }).GET('/api/library'), 200);
  const card = items.find((item) => item.text === text)!;
  return bodyOf(await api(stack, { token: learner.token }).GET('/api/library/{cardId}', { params: { path: { cardId: card.cardId } } }), 200).card;
}

describe('captions', () => {
  it('captures from a WebVTT caption with the line as its sentence, and a link back to the moment when asked', async () => {
    const { learner, page, ui } = await newLearnerAt(DROP, { sendContext: true, linkToMoment: true });
    await hover(page, await ui.box(LINE));
    await ui.select(LINE, 'a drop in the ocean');
    await page.screenshot({ path: `${SHOTS}/webvtt-caption-layer.png` });
    const from = proxy.exchanges.length;
    await ui.click('.captions .capture-caption');
    await expect.poll(() => ui.toast(), { timeout: 10_000 }).toMatch(/^Saved/);
    const [sent] = requestsTo(from, '/api/library');
    expect(sent!.requestBody).toEqual({
      text: 'a drop in the ocean',
      context: 'Some said it was only a drop in the ocean.',
      sourceUrl: `${fixtures.url('video.html')}#t=3`,
    });
    const card = await libraryCard(learner, 'a drop in the ocean');
    expect(card.contexts.map((c) => [c.text, c.sourceUrl])).toEqual([['Some said it was only a drop in the ocean.', `${fixtures.url('video.html')}#t=3`]]);
    // The page sees the layer's host, never what is in it.
    expect(await page.evaluate(() => [...(globalThis as any).document.querySelectorAll('html > div')].map((d: any) => d.shadowRoot))).toEqual([null]);
    await page.close();
  });

  it('captures from YouTube’s caption markup: hovering the drawn line pauses the video and shows it in the layer', async () => {
    const learner = await newUser(stack);
    await extension.configure({ serviceUrl: proxy.url, token: learner.token, sendContext: true });
    const page = await open('youtube-captions.html');
    const ui = extensionUi(page);
    await seek(page, 6.2);
    const segment = page.locator('.ytp-caption-segment');
    await expect.poll(() => segment.innerText(), { timeout: 10_000 }).toBe('It felt like a drop in the ocean at first.');
    await hover(page, await segment.boundingBox());
    await expect.poll(() => ui.text(LINE), { timeout: 5_000 }).toBe('It felt like a drop in the ocean at first.');
    await ui.select(LINE, 'felt like');
    await expect.poll(() => ui.shown('.captions .capture-caption'), { timeout: 5_000 }).toBe(true);
    await page.screenshot({ path: `${SHOTS}/youtube-caption-layer.png` });
    const from = proxy.exchanges.length;
    await ui.click('.captions .capture-caption');
    await expect.poll(() => ui.toast(), { timeout: 10_000 }).toMatch(/^Saved/);
    // The link back to the moment is off by default: the sentence goes, the address does not.
    expect(requestsTo(from, '/api/library').map((e) => e.requestBody)).toEqual([{ text: 'felt like', context: 'It felt like a drop in the ocean at first.' }]);
    await page.close();
  });

  it('shows bilingual captions translated a few lines ahead; a line seen before is free', async () => {
    const { learner, page, ui } = await newLearnerAt(FIRST);
    const from = proxy.translations().length;
    await ui.click('.captions .bilingual');
    await expect.poll(() => ui.text(TRANSLATION), { timeout: 15_000 }).toMatch(/^\[fr\] /);
    const [first] = proxy.translations().slice(from);
    // The line shown and the four after it, in one batch.
    expect(first!.requestBody.items.map((item: { text: string }) => item.text)).toEqual([
      'The council talked for hours at the meeting.',
      'In the end, they decided to go ahead with the plan.',
      'Some said it was only a drop in the ocean.',
      'Others warned about kicking the can down the road.',
      'The vote came at the eleventh hour.',
    ]);
    expect(first!.responseBody.credits_charged).toBeGreaterThan(0);
    await seek(page, 3.6);
    await expect.poll(() => ui.text(TRANSLATION), { timeout: 10_000 }).toBe('[fr] Some said it was only a drop in the ocean.');
    await page.screenshot({ path: `${SHOTS}/bilingual-captions.png` });
    await page.close();

    // Another tab, the same lines: answered again (the same batch, the same request id), nothing more is charged.
    const balance = await balanceOf(stack, learner);
    const again = await openAt(FIRST);
    await extensionUi(again).click('.captions .bilingual');
    await expect.poll(() => extensionUi(again).text(TRANSLATION), { timeout: 15_000 }).toBe('[fr] The council talked for hours at the meeting.');
    expect(await balanceOf(stack, learner)).toBe(balance);
    await again.close();
  });

  it('keeps the captions’ paid translations when a later batch meets a 402 while the first is in flight', async () => {
    const { page, ui } = await newLearnerAt(FIRST);
    const from = proxy.translations().length;
    const held = proxy.holdNextThenRefuse(402);
    try {
      await ui.click('.captions .bilingual');
      // The next line brings one more line into the window ahead: a second batch, refused.
      await seek(page, 2.0);
      await expect.poll(() => ui.text('.captions .status'), { timeout: 15_000 }).toMatch(/^Translation stopped\. Your credits are used up/);
      held.release();
      await expect.poll(() => ui.text(TRANSLATION), { timeout: 15_000 }).toMatch(/^\[fr\] /);
    } finally {
      proxy.heal();
    }
    await page.evaluate(() => (globalThis as any).document.querySelector('video').pause());
    await page.screenshot({ path: `${SHOTS}/bilingual-captions-stopped.png` });
    expect(await ui.text('.captions .action')).toBe('Credits');
    // The held batch was answered (and charged, were its lines new): its translations are on the page all the same.
    const [answered] = proxy.translations().slice(from);
    expect(answered!.status).toBe(200);
    const shown = await ui.text(TRANSLATION);
    expect(answered!.responseBody.items.map((item: { text: string }) => item.text)).toContain(shown);
    await page.close();
  });

  it('gives a page’s script nothing: no capture, no translation, no pause, nothing of the layer to read', async () => {
    const { page } = await newLearnerAt(DROP, { sendContext: true, linkToMoment: true });
    const from = proxy.exchanges.length;
    const seen = await page.evaluate(async () => {
      const doc = (globalThis as any).document;
      const host = [...doc.querySelectorAll('html > div')].at(-1);
      const box = doc.querySelector('video').getBoundingClientRect();
      const at = { clientX: box.left + box.width / 2, clientY: box.bottom - 30, bubbles: true, composed: true };
      for (const target of [host, doc.elementFromPoint(at.clientX, at.clientY), doc.querySelector('video'), doc.body])
        for (const type of ['pointerover', 'pointerenter', 'mouseover', 'pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'keyup'])
          target.dispatchEvent(new (type.startsWith('pointer') ? (globalThis as any).PointerEvent : (globalThis as any).MouseEvent)(type, at));
      host.click();
      const range = doc.createRange();
      range.selectNodeContents(host);
      (globalThis as any).getSelection().addRange(range);
      await new Promise((resolve) => setTimeout(resolve, 500));
      return {
        root: host.shadowRoot,
        hit: doc.elementFromPoint(at.clientX, at.clientY) === host,
        text: doc.body.innerText + doc.documentElement.innerText,
        paused: doc.querySelector('video').paused,
      };
    });
    expect(seen.root).toBeNull();
    expect(seen.text).not.toContain('Some said it was only');
    expect(seen.paused).toBe(false);
    await page.waitForTimeout(1_000);
    expect(requestsTo(from, '/api/library')).toEqual([]);
    expect(proxy.translations().slice(from)).toEqual([]);
    await page.close();
  });

  it('underlines known expressions in captions and counts them once per ten minutes from the same tab', async () => {
    const learner = await newUser(stack);
    const captured = bodyOf(await api(stack, { token: learner.token }).POST('/api/library', { body: { text: 'a drop in the ocean' } }), 202);
    await waitForStatus(stack, learner, captured.card.cardId, 'ready');
    await extension.configure({ serviceUrl: proxy.url, token: learner.token, countEncounters: true });
    const from = proxy.exchanges.length;
    const page = await open('video.html');
    for (let view = 0; view < 3; view++) {
      if (view > 0) await page.reload();
      await seek(page, 3.6);
      await expect.poll(() => extensionUi(page).text('.captions .line u'), { timeout: 10_000 }).toBe('a drop in the ocean');
    }
    await expect.poll(() => requestsTo(from, '/api/encounters').length, { timeout: 20_000 }).toBe(1);
    await page.waitForTimeout(SETTLE_MS);
    const [reported] = requestsTo(from, '/api/encounters');
    expect(reported!.requestBody.encounters.map((e: { cardId: string }) => e.cardId)).toEqual([captured.card.cardId]);
    expect(JSON.stringify(reported!.requestBody)).not.toMatch(/video|127\.0\.0\.1|ocean/);
    expect(requestsTo(from, '/api/encounters')).toHaveLength(1);
    await page.close();
  });
});
