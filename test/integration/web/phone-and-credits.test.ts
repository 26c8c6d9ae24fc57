import { get } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { counterValue } from '../../support/metrics.ts';
import type { Stack } from '../../support/stack.ts';
import { captureReady, DESKTOP, line, openPage, openSection, PASSWORD, PHONE, shoot, signUp, useBrowserStack, userIdOf } from './browser.ts';

// What a learner meets on a phone and at a desk when things go less than well: credits used up
// (said everywhere, the renewal choice), captures sent faster than they save, a failed card, the
// phone's navigation, the sign-in alert, Replay's mask, the ledger, and the small findings.

let stack: Stack;
let browser: Browser;

useBrowserStack((started) => ({ stack, browser } = started));

const SIZES = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const;
const sqlRun = (statement: string, params: unknown[]) => stack.orm.em.fork().execute(statement, params);

/** The learner's period (and their cards' failures) moved 40 days back: the period has ended, the next is due. */
async function endPeriod(userId: string) {
  const shift = '40 days';
  await sqlRun(
    `UPDATE wallets SET period_anchor = period_anchor - ?::interval, period_start = period_start - ?::interval, period_end = period_end - ?::interval
     WHERE user_id = ?`,
    [shift, shift, shift, userId],
  );
  await sqlRun(`UPDATE cards SET updated_at = updated_at - ?::interval WHERE user_id = ?`, [shift, userId]);
}

const capture = async (page: Page, text: string) => {
  await page.getByLabel('Capture an English expression').fill(text);
  await page.getByLabel('Capture an English expression').press('Enter');
};

describe.each(SIZES)('out of credits (%s)', (size, viewport) => {
  it(
    'is said on the capture, the card, Replay and Sentences; Try again waits; the renewal choice prepares the card when credits renew',
    { timeout: 150_000 },
    async () => {
      const { context, page, errors } = await openPage(browser, stack.baseUrl, viewport);
      await signUp(page);
      const userId = await userIdOf(page);
      await sqlRun(`UPDATE wallets SET balance = 0 WHERE user_id = ?`, [userId]);
      await page.reload();
      await page.getByText('Your credits for this period are used up.').waitFor();
      await page.getByText(/They renew on .+\. A paid plan gives 5,000 credits every month\./).waitFor();

      await capture(page, 'a piece of cake');
      await page
        .getByText(/^“a piece of cake” is saved, but your credits are used up, so its preparation waits\. Your credits renew on .+; try it again then\.$/)
        .waitFor({
          timeout: 30_000,
        });
      const cake = line(page, 'a piece of cake');
      await cake.getByText('Out of credits').waitFor();
      const retry = cake.getByRole('button', { name: 'Try again: prepare “a piece of cake”' });
      expect(await retry.isDisabled()).toBe(true);
      const why = await retry.getAttribute('aria-describedby');
      expect(await page.locator(`[id="${why}"]`).textContent()).toMatch(/^Your credits are used up until .+\.$/);
      await shoot(page, 'library-out-of-credits');

      // The one choice, here where it matters (and on the credits page).
      await page.getByLabel('Prepare when my credits renew').check();
      await page.getByText('Cards waiting for credits will be prepared when your credits renew.').waitFor();

      await page.getByRole('link', { name: 'a piece of cake: details' }).click();
      await page
        .getByText('Saved, but not prepared yet: your credits were used up when it was captured. It is prepared when your credits renew, as you chose.')
        .waitFor();
      await page.getByText('This card’s translation and notes wait for credits.', { exact: false }).waitFor();
      expect(await page.getByRole('button', { name: 'Try again: prepare “a piece of cake”' }).isDisabled()).toBe(true);
      await shoot(page, 'card-out-of-credits');

      await page
        .getByRole('link', { name: /^Replay/ })
        .first()
        .click();
      await page.getByText(/Replay is free: practise as usual\./).waitFor();
      await shoot(page, 'replay-out-of-credits');
      await page.getByRole('link', { name: 'Sentences' }).click();
      await page.getByText(/Translating sentences waits for credits/).waitFor();
      await shoot(page, 'sentences-out-of-credits');

      // The period renews: the first read of the wallet prepares the card that waited.
      await endPeriod(userId);
      await page
        .getByRole('link', { name: /^Library/ })
        .first()
        .click();
      await page.reload();
      await cake.getByText('Ready').waitFor({ timeout: 45_000 });
      expect(await page.getByText('Your credits for this period are used up.').count()).toBe(0);

      // The ledger names what it paid for.
      await page.goto('/credits');
      const ledger = page.getByRole('list', { name: 'Ledger' });
      await ledger.getByRole('link', { name: 'Preparing “a piece of cake”' }).waitFor();
      expect(await page.getByLabel('Prepare when my credits renew').isChecked()).toBe(true);
      await shoot(page, 'ledger');
      if (size === 'phone') {
        // Every ledger entry says what it was for.
        expect(await ledger.getByText('Capture preparation', { exact: true }).count()).toBe(0);
      }
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it('keeps typed text: captures sent while one saves are queued, each on its own line', { timeout: 120_000 }, async () => {
    const { context, page, errors } = await openPage(browser, stack.baseUrl, viewport);
    await signUp(page);
    const field = page.getByLabel('Capture an English expression');
    // Refused by the service: said on its line, and the text comes back into the empty field.
    await capture(page, '1234');
    await page.getByText(/^“1234” was not saved: /).waitFor();
    expect(await field.inputValue()).toBe('1234');
    await field.fill('');

    // Each save takes a while (the request held back), each preparation too.
    await page.route('**/trpc/library.capture**', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    stack.fake.setLatency(1500);
    await capture(page, 'break a leg');
    expect(await field.inputValue()).toBe('');
    await capture(page, 'a piece of cake');
    await field.fill('under the weather');
    await page.getByText('Saving “break a leg”…').waitFor();
    await page.getByText('Waiting to save “a piece of cake”…').waitFor();
    await page.getByText('Saved “break a leg”, preparing…').waitFor({ timeout: 30_000 });
    stack.fake.setLatency(0);
    await page.getByText(/^“break a leg” is ready: /).waitFor({ timeout: 30_000 });
    await page.getByText(/^“a piece of cake” is ready: /).waitFor({ timeout: 30_000 });
    await line(page, 'a piece of cake').getByText('Ready').waitFor();
    expect(await field.inputValue()).toBe('under the weather');
    await shoot(page, 'library-captures');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('on a phone', () => {
  it('a failed card, the bottom bar, focus never under it, the sign-in alert and the small findings', { timeout: 150_000 }, async () => {
    const { context, page, errors } = await openPage(browser, stack.baseUrl, PHONE);
    const email = await signUp(page);

    // The header is one short row; the sections are a bottom bar of four and More.
    const top = (await page.locator('main').boundingBox())!;
    expect(top.y).toBeLessThan(90);
    const bar = (await page.getByRole('navigation', { name: 'Sections' }).boundingBox())!;
    expect(bar.y + bar.height).toBeCloseTo(PHONE.height, 0);
    expect(bar.height).toBeLessThanOrEqual(64);
    // The search field's placeholder fits.
    // Evaluated as text: the tests are type-checked without the DOM's types.
    const fits = await page.evaluate<boolean>(`(() => {
      const input = document.querySelector('#search-input');
      const style = getComputedStyle(input);
      const ctx = document.createElement('canvas').getContext('2d');
      ctx.font = style.fontSize + ' ' + style.fontFamily;
      return ctx.measureText(input.placeholder).width <= input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    })()`);
    expect(fits).toBe(true);

    // A failed card: its badge and Try again below the words, never over them.
    stack.fake.setMode('privacy_refusal');
    await capture(page, 'hold your horses');
    const failed = line(page, 'hold your horses');
    await failed.getByText('Preparation failed').waitFor({ timeout: 30_000 });
    stack.fake.setMode('ok');
    const title = (await failed.getByRole('link').boundingBox())!;
    const badge = (await failed.getByText('Preparation failed').boundingBox())!;
    expect(badge.y).toBeGreaterThanOrEqual(title.y + title.height - 1);
    expect(title.height).toBeLessThan(50); // one line
    await shoot(page, 'library-failed');
    await failed.getByRole('button', { name: 'Try again: prepare “hold your horses”' }).click();
    await failed.getByText('Ready').waitFor({ timeout: 30_000 });

    // More holds the other sections.
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('link', { name: 'Draft' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('link', { name: 'Draft' }).waitFor({ state: 'detached' });

    // Settings, a long page: each control reached by Tab is above the bar.
    await openSection(page, 'Settings');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.getByLabel('Name').fill('phone');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = page.getByRole('textbox', { name: 'New token' });
    await secret.waitFor();
    // The whole token shows.
    expect(
      await page.evaluate<boolean>(`(() => {
        const el = document.querySelector('#new-token-value');
        return el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth + 1;
      })()`),
    ).toBe(true);
    await shoot(page, 'settings-token');
    await page.locator('h1').focus();
    for (let i = 0; i < 25; i += 1) {
      await page.keyboard.press('Tab');
      const covered = await page.evaluate<boolean>(`(() => {
        const el = document.activeElement;
        const nav = document.querySelector('nav.tabs');
        if (!el || !nav || nav.contains(el) || el === document.body) return false;
        return el.getBoundingClientRect().bottom > nav.getBoundingClientRect().top + 1;
      })()`);
      expect(covered, `focus ${i + 1} under the bar`).toBe(false);
    }

    // Signed out everywhere, then a wrong password: only the alert shows, tied to the fields.
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByText('You are signed out on every device.').waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(`${PASSWORD} wrong`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('Email or password is wrong.').waitFor();
    expect(await page.getByText('You are signed out on every device.').count()).toBe(0);
    expect(await page.getByLabel('Password').getAttribute('aria-describedby')).toContain('auth-error');
    await shoot(page, 'sign-in-wrong');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Replay’s mask never breaks within a word', { timeout: 120_000 }, async () => {
    const { context, page, errors } = await openPage(browser, stack.baseUrl, PHONE);
    await signUp(page);
    await captureReady(page, 'the early bird catches the worm every single morning');
    await page
      .getByRole('link', { name: /^Replay/ })
      .first()
      .click();
    await page.getByRole('button', { name: 'Start Replay' }).click();
    await page.getByText('Item 1 of 1').waitFor();
    // A word split over two lines would have a box on each.
    const broken = await page.evaluate<string[]>(
      `[...document.querySelectorAll('.masked .word')].filter((w) => w.getClientRects().length > 1).map((w) => w.textContent)`,
    );
    expect(broken).toEqual([]);
    expect(await page.locator('.masked .word').count()).toBeGreaterThan(1);
    await shoot(page, 'replay-mask');
    expect(errors).toEqual([]);
    await context.close();
  });
});

/** GETs a path with an Accept-Encoding, returning the encoding sent. */
function encodingOf(url: string, encoding: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': encoding } }, (res) => {
      res.resume();
      resolve(res.headers['content-encoding']);
    }).on('error', reject);
  });
}

describe.each(SIZES)('small findings (%s)', (size, viewport) => {
  it(
    'bulk lines with their translations, an accent-coloured progress bar, a repeat said as such, index.html compressed, the favicon asked once',
    { timeout: 150_000 },
    async () => {
      const { context, page, errors } = await openPage(browser, stack.baseUrl, viewport);
      const favicons = () => counterValue('lcs_http_requests_total', { method: 'GET', route: '/favicon.svg' });
      const faviconsBefore = await favicons();
      await signUp(page);
      expect(await encodingOf(`${stack.baseUrl}/library`, 'br, gzip')).toBe('br');

      await page.getByRole('link', { name: 'Sentences' }).click();
      await page.getByLabel('Sentences, one per line').fill('I missed my stop.\nThe next one comes in ten minutes.');
      await page.getByRole('button', { name: 'Translate and save' }).click();
      const upload = page.getByRole('region', { name: 'Upload' });
      await upload.getByText('Sent 2 of 2 · translated 2').waitFor({ timeout: 30_000 });
      await upload.getByRole('listitem').filter({ hasText: 'I missed my stop.' }).getByText('[fr] I missed my stop.').waitFor();
      const accent = await page.evaluate<string>(`getComputedStyle(document.querySelector('.upload progress')).accentColor`);
      expect(accent).not.toBe('auto');
      await shoot(page, 'sentences-bulk');

      await page.getByRole('link', { name: 'Translate' }).click();
      for (const round of [1, 2]) {
        await page.getByLabel('Text to read bilingual').fill(`Trains are late (${size}).`);
        await page.getByRole('button', { name: 'Translate', exact: true }).click();
        const said = page.getByRole('region', { name: 'Bilingual text' }).getByRole('status');
        if (round === 1) await said.getByText(/^Charged \d+ credits?\.$/).waitFor();
        else await said.getByText('Already translated: nothing charged.').waitFor();
      }
      // Asked of the service by the page and by the service worker's precache at most; the browser keeps it for later addresses.
      expect((await favicons()) - faviconsBefore).toBeGreaterThanOrEqual(1);
      expect((await favicons()) - faviconsBefore).toBeLessThanOrEqual(2);
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
