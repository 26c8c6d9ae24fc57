import type { Browser, Locator, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { Stack } from '../../support/stack.ts';
import { DESKTOP, hiddenRuns, line, openPage, PASSWORD, useBrowserStack } from './browser.ts';

// The core loop by keyboard alone: sign up, choose a language, capture, open Replay, rebuild the
// English and finish the session, with no click. Focus must land where each step continues.

let stack: Stack;
let browser: Browser;

useBrowserStack((started) => ({ stack, browser } = started));

/** Tabs forward until `target` has the focus; fails when it is not reachable within `most` presses. */
async function tabTo(page: Page, target: Locator, most = 40) {
  for (let i = 0; i < most; i++) {
    if ((await target.and(page.locator(':focus')).count()) > 0) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`not reachable by Tab: ${String(target)}`);
}

it('takes a learner from sign-up to a finished Replay session by keyboard alone', { timeout: 120_000 }, async () => {
  const { context, page, errors } = await openPage(browser, stack.baseUrl, DESKTOP);
  await page.goto('/sign-up');
  await tabTo(page, page.getByLabel('Email'));
  await page.keyboard.type(`keys-${Date.now()}@example.test`);
  await tabTo(page, page.getByLabel('Password'));
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');

  const language = page.getByLabel('My language');
  await language.waitFor();
  // The choices arrive with the languages query; typing before they exist selects nothing.
  await language.locator('option', { hasText: 'French' }).waitFor({ state: 'attached' });
  await tabTo(page, language);
  await page.keyboard.type('French'); // a native select picks the option typed
  expect(await language.inputValue()).toBe('fr');
  await tabTo(page, page.getByRole('button', { name: 'Start capturing' }));
  await page.keyboard.press('Enter');

  const capture = page.getByLabel('Capture an English expression');
  await capture.waitFor();
  await tabTo(page, capture);
  await page.keyboard.type('spill the beans');
  await page.keyboard.press('Enter');
  await line(page, 'spill the beans').getByText('Ready').waitFor({ timeout: 30_000 });

  await tabTo(page, page.getByRole('link', { name: /^Replay/ }));
  await page.keyboard.press('Enter');
  const start = page.getByRole('button', { name: 'Start Replay' });
  await start.waitFor();
  await tabTo(page, start);
  await page.keyboard.press('Enter');
  await page.getByText('Item 1 of 1').waitFor();

  const session = await (await context.request.get(`/trpc/replay.session?input=${encodeURIComponent(JSON.stringify({ count: '10' }))}`)).json();
  const [item] = session.result.data.items as { answer: string; mask: string }[];
  const slots = page.getByRole('region', { name: 'Replay' }).getByRole('textbox', { name: /^Missing letters/ });
  for (const [i, run] of hiddenRuns(item!.answer, item!.mask).entries()) {
    await tabTo(page, slots.nth(i));
    await page.keyboard.type(run);
  }
  await page.keyboard.press('Enter');
  const feedback = page.getByRole('region', { name: 'Feedback' });
  await feedback.getByRole('heading').first().waitFor();
  await tabTo(page, page.getByRole('button', { name: 'Finish' }));
  await page.keyboard.press('Enter');
  await page.getByText('Session complete: you practised 1 expression.').waitFor();
  expect(errors).toEqual([]);
  await context.close();
});
