import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Stack } from '../../support/stack.ts';
import { DESKTOP, openPage, shoot, signUp, useBrowserStack } from './browser.ts';

// Issue 27 through the page: capture with the sentence it was met in, the card's own sentences
// with the expression marked and how often it was met, the library's "met most often" order, and
// Replay's cloze inside the learner's sentence.

let stack: Stack;
let browser: Browser;

useBrowserStack((started) => ({ stack, browser } = started));

describe('expressions in their own context', () => {
  it(
    'captures "bank" from a river sentence and gets the river sense, shows the sentences and encounters, and practises it inside the sentence',
    { timeout: 150_000 },
    async () => {
      const { context, page, errors } = await openPage(browser, stack.baseUrl, DESKTOP);
      await signUp(page);

      // A sentence that does not contain the expression is refused, next to the fields.
      await page.getByLabel('Capture an English expression').fill('bank');
      await page.getByLabel(/The sentence you met it in/).fill('We walked along the river.');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('The sentence must contain the expression').waitFor();

      await page.getByLabel(/The sentence you met it in/).fill('We had a picnic on the bank of the river.');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText(/“bank” is ready: \[fr\] bank \(\[fr\] edge of a river\)/).waitFor({ timeout: 45_000 });
      // Met again in another sentence: added to the same card, free.
      await page.getByLabel('Capture an English expression').fill('Bank');
      await page.getByLabel(/The sentence you met it in/).fill('I paid the cheque into the bank.');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('“bank” is already in your library: your sentence is added to it.').waitFor();
      await page.getByLabel('Capture an English expression').fill('break a leg');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText(/“break a leg” is ready/).waitFor({ timeout: 45_000 });

      // Met on pages (what the extension reports, opt-in): sent here as the page would, with its session.
      const cardIds = await page.evaluate(async () => {
        const res = await fetch('/api/library?sort=newest');
        const body = (await res.json()) as { items: { cardId: string; text: string }[] };
        return Object.fromEntries(body.items.map((c) => [c.text, c.cardId]));
      });
      const met = await page.evaluate(
        async ({ bank }) => {
          const statuses = [];
          for (const daysAgo of [3, 1, 1]) {
            const res = await fetch('/api/encounters', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({
                pageViewId: crypto.randomUUID(),
                encounters: [{ cardId: bank, metAt: new Date(Date.now() - daysAgo * 86_400_000).toISOString() }],
              }),
            });
            statuses.push(res.status);
          }
          return statuses;
        },
        { bank: cardIds.bank! },
      );
      expect(met).toEqual([200, 200, 200]);
      // The cheque sentence again, from a video's captions with "Keep a link back to the moment" on: the sentence gets the link.
      const moment = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s';
      const linked = await page.evaluate(async (sourceUrl) => {
        const body = JSON.stringify({ text: 'bank', context: 'I paid the cheque into the bank.', sourceUrl });
        return (await fetch('/api/library', { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status;
      }, moment);
      expect(linked).toBe(200);

      // The library by "met most often": bank first, with its count.
      await page.getByLabel('Order').selectOption('met');
      await page.waitForURL(/sort=met/);
      const lines = page.getByRole('list', { name: 'Your library' }).getByRole('article');
      await expect.poll(() => lines.first().getAttribute('aria-label')).toBe('bank');
      await lines.first().getByText('met 3×').waitFor();
      await shoot(page, 'library-met-most-often');

      // The card: its sentences with the expression marked, the sense it was prepared for, how often it was met.
      await page.getByRole('link', { name: 'bank: details' }).click();
      await page.getByRole('heading', { name: 'bank', level: 1 }).waitFor();
      const sentences = page.getByRole('list', { name: 'Where you met it' });
      await sentences.getByRole('listitem').filter({ hasText: 'picnic' }).getByText('Prepared for this sense').waitFor();
      expect(await sentences.locator('mark').allTextContents()).toEqual(['bank', 'bank']);
      await page.getByText('Explained in the sense [fr] edge of a river (from “river”).').waitFor();
      await page.getByText('Met 3 times, last yesterday').waitFor();
      await sentences.getByRole('listitem').filter({ hasText: 'cheque' }).getByRole('button', { name: 'Prepare this sense' }).waitFor();
      expect(await sentences.getByRole('listitem').filter({ hasText: 'cheque' }).getByRole('link', { name: 'Back to the moment' }).getAttribute('href')).toBe(
        moment,
      );
      expect(await sentences.getByRole('link', { name: 'Back to the moment' }).count()).toBe(1);
      // The model that prepared it, and "Prepare again" with the current one: the card is prepared anew, for the same sense.
      await page.getByText(`Prepared by ${stack.config.model.model}`).waitFor();
      await shoot(page, 'card-with-contexts');
      await page.getByRole('button', { name: 'Prepare again' }).click();
      await page.getByText('Preparing “bank” again with the current model.').waitFor();
      await page.getByText(`Prepared by ${stack.config.model.model}`).waitFor({ timeout: 45_000 });
      await page.getByText('Explained in the sense [fr] edge of a river (from “river”).').waitFor({ timeout: 45_000 });

      // Replay: the card was met since its last review; practised inside the learner's own sentence.
      await page.getByRole('link', { name: /^Replay/ }).click();
      await page.getByRole('button', { name: 'Start Replay' }).click();
      await page.getByText(/^Item 1 of 2/).waitFor();
      // Cards come oldest first: bank is the first item.
      await page.getByText('You met this on a page since your last review.').waitFor();
      await page.getByRole('button', { name: 'My sentence' }).click();
      await page.getByText('Complete your own sentence:').waitFor();
      expect(await page.getByText('[fr] bank').count()).toBe(0);
      await page.getByText('I paid the cheque into the').waitFor();
      await shoot(page, 'replay-context-cloze');
      const completion = page.waitForRequest((request) => request.url().endsWith('/trpc/replay.complete'));
      const slots = page.getByRole('textbox', { name: /^Missing letters/ });
      // "bank" on a new card: the first letter shown, "ank" to type.
      await slots.first().fill('ank');
      await page.getByRole('button', { name: 'Check' }).click();
      expect(JSON.parse((await completion).postData()!)).toMatchObject({ prompt: 'context', unaidedErrors: 0 });
      await page.getByRole('button', { name: 'Next item' }).waitFor();
      // The choice is remembered: the next item has no sentence, so it shows its translation.
      await page.getByRole('button', { name: 'Next item' }).click();
      await page.getByText('Say it in English:').waitFor();
      expect(await page.getByRole('button', { name: 'My sentence' }).count()).toBe(0);

      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
