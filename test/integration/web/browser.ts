import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { startStack, type Stack } from '../../support/stack.ts';

// What the browser tests share: the run's Chromium driven by playwright-core, a page of its own
// per learner, signing up through the page, and screenshots into test-results/screens.

export const SCREENS = 'test-results/screens';
export const PASSWORD = 'a long passphrase';
export const DESKTOP = { width: 1100, height: 900 };
export const PHONE = { width: 390, height: 844 };

/**
 * A connection to the run's Chromium (test/support/browser-server.ts); closing it closes every
 * context this file made, and leaves the browser to the other files.
 */
export async function connectBrowser(): Promise<Browser> {
  const endpoint = inject('chromiumEndpoint');
  if (!endpoint) throw new Error('No Chromium for this run: test/support/browser-server.ts launches one when a test/integration/web file is chosen.');
  mkdirSync(SCREENS, { recursive: true });
  return chromium.connect(endpoint);
}

/** The prelude of a browser test file: its stack and its connection to the run's browser, both closed after its tests. */
export function useBrowserStack(bind: (started: { stack: Stack; browser: Browser }) => void, options: Parameters<typeof startStack>[0] = {}) {
  let started: { stack: Stack; browser: Browser } | undefined;
  beforeAll(async () => {
    const [stack, browser] = await Promise.all([startStack(options), connectBrowser()]);
    started = { stack, browser };
    bind(started);
  });
  afterAll(async () => {
    await started?.browser.close();
    await started?.stack.close();
  });
}

/** A page of its own (cookies and all) at a size, collecting the page's own errors. */
export async function openPage(
  browser: Browser,
  baseURL: string,
  viewport: { width: number; height: number },
  options: { timezoneId?: string } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ baseURL, viewport, hasTouch: viewport.width < 500, ...options });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const errors: string[] = [];
  // CSP violations and script errors surface here; failed requests (expected 401s) are not errors of the page.
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

/** The signed-in learner's user id, read through the page's own session. */
export async function userIdOf(page: Page): Promise<string> {
  const me = await (await page.context().request.get('/trpc/account.me')).json();
  return me.result.data.userId;
}

/** Signs a new learner up through the page and sets the language; ends in the library. */
export async function signUp(page: Page): Promise<string> {
  const email = `learner-${randomUUID()}@example.test`;
  await page.goto('/sign-up');
  await page.getByRole('heading', { name: 'Create your account' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Set up your language' }).waitFor();
  await page.getByLabel('My language').selectOption('fr');
  await page.getByRole('button', { name: 'Start capturing' }).click();
  await page.getByLabel('Capture an English expression').waitFor();
  return email;
}

/** A card's line in the library list. */
export const line = (page: Page, text: string) => page.getByRole('list', { name: 'Your library' }).getByRole('article', { name: text });

/** Captures through the page and waits until the card is prepared (its line is named by `title`, a correction if any). */
export async function captureReady(page: Page, text: string, title = text) {
  await page.getByLabel('Capture an English expression').fill(text);
  await page.getByRole('button', { name: 'Save' }).click();
  await line(page, title).getByText('Ready').waitFor({ timeout: 30_000 });
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** The smallest tap target on a phone (WCAG 2.5.5's 44 CSS px). */
const TAP_PX = 44;

/**
 * What every screen is held to, then a full-page screenshot: nothing scrolls sideways; axe-core
 * finds no serious or critical violation; on a phone every control is at least 44 px each way
 * (Replay's letter slots are inline targets in the text they complete, which WCAG exempts), and
 * none is covered by the bottom bar when it has the focus.
 */
export async function shoot(page: Page, name: string) {
  const width = page.viewportSize()!.width;
  expect(await page.evaluate<number>('document.documentElement.scrollWidth'), name).toBeLessThanOrEqual(width);
  // Evaluated through the debugging protocol, which the page's Content-Security-Policy does not govern.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate<{ id: string; impact: string; nodes: { target: string[] }[] }[]>(`axe.run(document, { resultTypes: ['violations'] })
    .then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => ({ target: n.target })) })))`);
  expect(violations, `${name}: accessibility`).toEqual([]);
  if (width < 500) {
    const small = await page.evaluate<string[]>(`[...document.querySelectorAll('a, button, input, select, textarea, summary')]
      .filter((el) => el.getClientRects().length && !el.closest('.visually-hidden, .skip-link') && !el.matches('.masked input, label > input[type=checkbox]'))
      .map((el) => [el, el.getBoundingClientRect()])
      .filter(([, r]) => r.height < ${TAP_PX} - 0.5 || r.width < ${TAP_PX} - 0.5)
      .map(([el, r]) => el.outerHTML.slice(0, 80) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))`);
    expect(small, `${name}: tap targets under ${TAP_PX} px`).toEqual([]);
  }
  await page.screenshot({ path: `${SCREENS}/${width < 500 ? 'phone' : 'desktop'}-${name}.png`, fullPage: true });
}

/** Opens a section through the navigation: its tab, or on a phone "More" first when it is not in the bottom bar. */
export async function openSection(page: Page, name: string) {
  const nav = page.getByRole('navigation', { name: 'Sections' });
  const tab = nav.getByRole('link', { name, exact: true });
  if (!(await tab.isVisible())) await nav.getByRole('button', { name: 'More' }).click();
  await tab.click();
}

/** The hidden runs of a Replay item: the letters where the mask has '_'. */
export function hiddenRuns(answer: string, mask: string): string[] {
  const chars = Array.from(answer);
  const flags = Array.from(mask);
  const runs: string[] = [];
  flags.forEach((flag, i) => {
    if (flag !== '_') return;
    if (flags[i - 1] === '_') runs.push(runs.pop()! + chars[i]);
    else runs.push(chars[i]!);
  });
  return runs;
}
