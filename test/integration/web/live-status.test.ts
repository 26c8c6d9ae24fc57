import type { Browser, Page } from 'playwright-core';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { sql } from '../../support/helpers.ts';
import type { Stack } from '../../support/stack.ts';
import { DESKTOP, line, openPage, shoot, signUp, useBrowserStack, userIdOf } from './browser.ts';

// The page without polling: a capture turns ready through the status stream (SSE); and an HTML
// fragment dropped or pasted on Translate is read as its text blocks.

let stack: Stack;
let browser: Browser;

// Provider outages waited out as in production (the test stack's default gives up after 3 s).
useBrowserStack((started) => ({ stack, browser } = started), { env: { PROVIDER_WAIT_WINDOW_MS: '1800000', PROVIDER_WAIT_MAX_DELAY_MS: '5000' } });
beforeEach(() => stack.fake.reset());

/** The tRPC procedures the page calls, in order, with when each was asked. */
function procedureCalls(page: Page) {
  const calls: { procedure: string; at: number }[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/trpc/')) calls.push({ procedure: pathname.slice('/trpc/'.length), at: Date.now() });
  });
  return calls;
}

describe('live status in the page', () => {
  it('shows a capture turning ready without asking for the library again while it waits', { timeout: 90_000 }, async () => {
    const { context, page, errors } = await openPage(browser, stack.baseUrl, DESKTOP);
    const calls = procedureCalls(page);
    await signUp(page);
    await waitForStream(calls);

    stack.fake.setLatency(2_500); // long enough for two of the old one-second polls, within the model timeout (3 s)
    await page.getByLabel('Capture an English expression').fill('a piece of cake');
    await page.getByRole('button', { name: 'Save' }).click();
    await line(page, 'a piece of cake').getByText('Preparing…').waitFor();
    const waitingFrom = Date.now();
    await line(page, 'a piece of cake').getByText('Ready').waitFor({ timeout: 30_000 });
    const shownAt = Date.now();
    await page.getByText('“a piece of cake” is ready: [fr] a piece of cake').waitFor();

    // While it waited, the page asked nothing of the library; the push then read the one card.
    const libraryReads = calls.filter((c) => c.at >= waitingFrom && /^library\.(list|get)$/.test(c.procedure)).map((c) => c.procedure);
    expect(libraryReads).toEqual(['library.get']);
    const [{ enriched_ms }] = (await sql(
      stack,
      `SELECT extract(epoch FROM enriched_at) * 1000 AS enriched_ms FROM cards WHERE text = 'a piece of cake' AND user_id = ?`,
      [await userIdOf(page)],
    )) as [{ enriched_ms: number }];
    console.log(`live status: card ready → "Ready" on the page within ${Math.round(shownAt - enriched_ms)} ms`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it(
    'shows a card waiting out a provider outage as waiting, in its line and its details, then ready once the provider is back',
    { timeout: 120_000 },
    async () => {
      const { context, page, errors } = await openPage(browser, stack.baseUrl, DESKTOP);
      const calls = procedureCalls(page);
      await signUp(page);
      await waitForStream(calls);

      stack.fake.failFor(12_000, { status: 503 });
      await page.getByLabel('Capture an English expression').fill('under the weather');
      await page.getByRole('button', { name: 'Save' }).click();
      // Pushed by the status stream (a `waiting` event), not polled.
      await line(page, 'under the weather').getByText('Waiting for the language model…').waitFor({ timeout: 20_000 });
      await shoot(page, 'library-card-waiting');
      await line(page, 'under the weather').getByRole('link', { name: 'under the weather: details' }).click();
      const note = page.getByRole('status').filter({ hasText: 'Waiting for the language model: it is unavailable right now' });
      await note.waitFor();
      await shoot(page, 'card-details-waiting');
      // Once the provider answers again the card is prepared by itself, and the note goes.
      await page.getByText('Ready', { exact: true }).waitFor({ timeout: 60_000 });
      expect(await note.count()).toBe(0);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it('reads a pasted or dropped HTML fragment as its text blocks, never as HTML', { timeout: 60_000 }, async () => {
    const { context, page, errors } = await openPage(browser, stack.baseUrl, DESKTOP);
    const calls = procedureCalls(page);
    const fetched: string[] = [];
    page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
    await signUp(page);
    await page.getByRole('link', { name: 'Translate' }).click();
    const fragment = `<article><h2>Night trains</h2><p>They are back,
      <b>slowly</b>.</p><ul><li><p>Paris to Berlin</p></li><li>Vienna to Rome</li></ul>
      <img src="/tracking-pixel.gif" onerror="window.ran = true"><script>window.ran = true</script></article>`;
    await handOver(page, 'paste', fragment);
    expect(await page.getByLabel('Text to read bilingual').inputValue()).toBe('Night trains\n\nThey are back, slowly.\n\nParis to Berlin\n\nVienna to Rome');
    await page.getByRole('button', { name: 'Translate', exact: true }).click();
    const bilingual = page.getByRole('region', { name: 'Bilingual text' });
    for (const block of ['Night trains', 'They are back, slowly.', 'Paris to Berlin', 'Vienna to Rome']) await bilingual.getByText(`[fr] ${block}`).waitFor();

    // A dropped fragment takes the place of the text, likewise.
    await page.getByLabel('Text to read bilingual').fill('');
    await handOver(page, 'drop', '<h1>Timetables</h1><p>Printed weekly.</p>');
    expect(await page.getByLabel('Text to read bilingual').inputValue()).toBe('Timetables\n\nPrinted weekly.');

    // Nothing of the fragment ran or loaded. (Chromium checks the inline handler against the page's
    // CSP as the fragment is parsed, even in DOMParser's inert document, and reports it blocked.)
    expect(await page.evaluate('window.ran')).toBeUndefined();
    expect(fetched).not.toContain('/tracking-pixel.gif');
    expect(errors.filter((error) => !/^Executing inline event handler violates .* The action has been blocked\.$/.test(error))).toEqual([]);
    expect(calls.filter((c) => c.procedure === 'pageTranslation.translate')).toHaveLength(1);
    await context.close();
  });
});

/**
 * Gives the Translate field an HTML fragment as a browser does on a paste or a drop (with a plain
 * text version beside it). A string, evaluated in the page: the tests' types have no DOM.
 */
const handOver = (page: Page, event: 'paste' | 'drop', html: string) =>
  page.evaluate(`(() => {
  const data = new DataTransfer();
  data.setData('text/html', ${JSON.stringify(html)});
  data.setData('text/plain', 'the plain version is not used');
  const init = { bubbles: true, cancelable: true, ${event === 'paste' ? 'clipboardData' : 'dataTransfer'}: data };
  document.getElementById('translate-text').dispatchEvent(new ${event === 'paste' ? 'ClipboardEvent' : 'DragEvent'}('${event}', init));
})()`);

/** Waits until the page has opened its status stream (the SSE request is made once signed in). */
async function waitForStream(calls: { procedure: string }[]) {
  await vi.waitFor(() => expect(calls.map((c) => c.procedure)).toContain('status.changes'), { timeout: 10_000 });
}
