import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Stack } from '../../support/stack.ts';
import { captureReady, DESKTOP, line, openPage, openSection, PHONE, shoot, signUp, useBrowserStack, userIdOf } from './browser.ts';
import { api, bodyOf } from '../../support/api.ts';

// The web app's places beyond capture: credits and the ledger, Replay's overview and summary, a
// quiet correction rejected, notices that belong to their screen. Desktop and phone, one browser.

let stack: Stack;
let browser: Browser;

useBrowserStack((started) => ({ stack, browser } = started));

/** Answers the open Replay item by "show answer", then moves on. */
async function showAnswerAndGoOn(page: Page, last: boolean) {
  await page.getByRole('button', { name: 'Show answer' }).click();
  await page.getByRole('region', { name: 'Feedback' }).waitFor();
  await page.getByRole('button', { name: last ? 'Finish' : 'Next item' }).click();
}

describe.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const)('the learner’s places (%s)', (size, viewport) => {
  it(
    'shows credits, the cost of a capture and the ledger; keeps the learner’s text; Replay from badge to summary to caught up',
    { timeout: 120_000 },
    async () => {
      const { context, page, errors } = await openPage(browser, stack.baseUrl, viewport);
      stack.fake.setCost('0.00002'); // 2 credits a preparation
      await signUp(page);
      await page.getByText('It costs a few credits, charged once it is done. 500 credits left.').waitFor();
      await captureReady(page, 'I recieve it', 'I receive it');
      await page.getByText('“I recieve it” is ready: [fr] I recieve it. Charged 2 credits.').waitFor();
      await page.getByText('Your last capture cost 2 credits. 498 credits left.').waitFor();

      // The header's balance leads to the ledger, each entry with its reason.
      await page.getByRole('link', { name: '498 credits: see the ledger' }).click();
      await page.getByRole('heading', { name: 'Credits', level: 1 }).waitFor();
      const ledger = page.getByRole('list', { name: 'Ledger' });
      await ledger.getByRole('listitem').filter({ hasText: 'Preparing “I receive it”' }).filter({ hasText: '−2' }).waitFor();
      await ledger.getByRole('listitem').filter({ hasText: 'Free monthly allowance' }).filter({ hasText: '+500' }).waitFor();
      await page.getByText('Free plan: 500 credits every month').waitFor();
      await shoot(page, 'credits');

      // The quiet correction, rejected from the card's details: the card keeps the learner's text.
      await page.getByRole('link', { name: /^Library/ }).click();
      await page.getByRole('link', { name: 'I receive it: details' }).click();
      await page.getByText('You wrote “I recieve it”. Spelling fixed.').waitFor();
      await shoot(page, 'card-correction');
      await page.getByRole('button', { name: 'Keep my text' }).click();
      await page.getByText('Correction dropped: you practise “I recieve it” as you wrote it.').waitFor();
      await page.getByRole('heading', { name: 'I recieve it', level: 1 }).waitFor();
      expect(await page.getByRole('button', { name: 'Keep my text' }).count()).toBe(0);
      // The notice belongs to this screen: moving on clears it.
      await page.getByRole('link', { name: /^Replay/ }).click();
      await page.getByRole('heading', { name: 'Replay', level: 1 }).waitFor();
      expect(await page.getByText('Correction dropped').count()).toBe(0);

      // Replay: the tab's badge, what waits, an item with a slot per hidden letter, the time taken sent along.
      await page.getByRole('link', { name: 'Replay, 1 to practise' }).waitFor();
      await page.getByText('0 reviews due now · 1 new expression').waitFor();
      await page.getByRole('button', { name: 'Start Replay' }).click();
      await page.getByText('Item 1 of 1').waitFor();
      await shoot(page, 'replay-item');
      // Undo takes the rating back: the same item is open again.
      await page.getByRole('button', { name: 'Show answer' }).click();
      await page.getByRole('button', { name: 'Undo: try it again' }).click();
      await page.getByText('Item 1 of 1').waitFor();
      const completion = page.waitForRequest((request) => request.url().endsWith('/trpc/replay.complete'));
      await page.getByRole('textbox', { name: /^Missing letters 1/ }).fill('xx');
      await page.getByRole('button', { name: 'Check' }).click();
      await page.getByText(/^Not quite/).waitFor();
      await showAnswerAndGoOn(page, true);
      const sent = JSON.parse((await completion).postData()!);
      expect(sent).toMatchObject({ autoFilled: true, durationMs: expect.any(Number) });
      expect(sent.durationMs).toBeGreaterThan(0);

      // The summary, then an honest "all caught up" with the next due time; the badge is gone.
      const summary = page.getByRole('region', { name: 'Session summary' });
      await summary.getByRole('heading', { name: 'Session complete: you practised 1 expression.' }).waitFor();
      await summary.getByText(/^Again soon\s*I recieve it/).waitFor();
      await summary.getByText(/first try: [^)]*x/).waitFor();
      // Two columns on a wide screen: every part of a line's second column wraps within it, never under the rating.
      if (size === 'desktop') {
        const rating = (await summary.locator('.rating-word').first().boundingBox())!;
        const what = (await summary.locator('.summary-what').first().boundingBox())!;
        expect(what.x).toBeGreaterThanOrEqual(rating.x + rating.width);
      }
      await page.getByRole('heading', { name: 'All caught up' }).waitFor();
      await page.getByText(/^Nothing is due now\. Your next review is due in \d+ (seconds?|minutes?)\.$/).waitFor();
      await page.getByRole('link', { name: 'Replay', exact: true }).waitFor();
      await shoot(page, 'replay-summary');

      // A due card is due now, never "seconds ago".
      await page.getByRole('link', { name: /^Library/ }).click();
      await page.getByRole('link', { name: 'I recieve it: details' }).click();
      await page.getByText(/Practised 1 time · due in \d+ (seconds?|minutes?)/).waitFor();
      // Its history: one review (the undone one is gone), with its evidence.
      const history = page.getByRole('list', { name: 'History' });
      await history.getByText(/answer shown, \d+ s$/).waitFor();
      expect(await history.getByRole('listitem').count()).toBe(1);
      await shoot(page, 'card-history');

      // Running low: the header and the credits page warn.
      await stack.orm.em.fork().execute(`UPDATE wallets SET balance = 20 WHERE user_id = ?`, [await userIdOf(page)]);
      await page.goto('/credits');
      await page.getByRole('link', { name: '20 credits · low: running low, see the ledger' }).waitFor();
      await page
        .getByRole('alert')
        .getByText(/^You are running low\./)
        .waitFor();
      if (size === 'phone') await shoot(page, 'credits-low');

      expect(errors).toEqual([]);
      await context.close();
    },
  );
});

it('lets a notice be dismissed, keeps it across a redirect, and undoes a delete from it', { timeout: 60_000 }, async () => {
  const { context, page, errors } = await openPage(browser, stack.baseUrl, DESKTOP);
  await signUp(page);
  await captureReady(page, 'once in a blue moon');
  const deleteIt = async () => {
    await page.getByRole('link', { name: 'once in a blue moon: details' }).click();
    await page.getByRole('button', { name: 'Delete “once in a blue moon”' }).click();
    await page.getByText('Deleted “once in a blue moon”.').waitFor();
    await line(page, 'once in a blue moon').waitFor({ state: 'detached' });
  };
  await deleteIt();
  await page.getByRole('button', { name: 'Undo' }).click();
  await line(page, 'once in a blue moon').waitFor();
  // Not undone: sent once the time to undo has passed.
  await deleteIt();
  const cookie = async () => (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  await expect.poll(async () => bodyOf(await api(stack, { cookie: await cookie() }).GET('/api/library'), 200).items.length, { timeout: 15_000 }).toBe(0);
  await page.reload();
  await page.getByText('Your library is empty: capture your first expression above.').waitFor();

  await openSection(page, 'Settings');
  await page.getByLabel('How much to remember').selectOption('0.95');
  await page.getByRole('button', { name: 'Save Replay setting' }).click();
  await page.getByText('Replay setting saved. It applies from each card’s next review.').waitFor();
  expect((await (await context.request.get('/trpc/replay.settings')).json()).result.data).toMatchObject({ desiredRetention: 0.95 });
  await page.getByRole('button', { name: 'Save language' }).click();
  await page.getByText('Language saved.').waitFor();
  await page.getByRole('button', { name: 'Dismiss notice' }).click();
  await page.getByText('Language saved.').waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByText('You are signed out.').waitFor();
  expect(errors).toEqual([]);
  await context.close();
});
