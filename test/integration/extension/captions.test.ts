import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, bodyOf } from '../../support/api.ts';
import type { Stack } from '../../support/stack.ts';
import { balanceOf, newUser, type TestUser } from '../../support/users.ts';
import { setBalance, waitForStatus } from '../library/helpers.ts';
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

async function libraryCard(learner: TestUser, text: string) {
  const { items } = bodyOf(await api(stack, { token: learner.token }).GET('/api/library'), 200);
  const card = items.find((item) => item.text === text)!;
  return bodyOf(await api(stack, { token: learner.token }).GET('/api/library/{cardId}', { params: { path: { cardId: card.cardId } } }), 200).card;
}

describe('captions', () => {
  it('captures from a WebVTT caption with the line as its sentence, and a link back to the moment when asked', async () => {
    const learner = await newUser(stack);
    await extension.configure({ serviceUrl: proxy.url, token: learner.token, sendContext: true, linkToMoment: true });
    const page = await open('video.html');
    const ui = extensionUi(page);
    await seek(page, 3.6);
    await expect.poll(() => ui.text(LINE), { timeout: 10_000 }).toBe('Some said it was only a drop in the ocean.');
    await hover(page, await ui.box(LINE));
    await ui.select(LINE, 'a drop in the ocean');
    await page.screenshot({ path: `${SHOTS}/webvtt-caption-layer.png` });
    const from = proxy.exchanges.length;
    await ui.click('.captions .capture');
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
});
