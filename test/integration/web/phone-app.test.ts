import type { Browser, Page, Request } from 'playwright-core';
import { describe, expect, it, onTestFailed, vi } from 'vitest';
import { api, bodyOf } from '../../support/api.ts';
import type { Stack } from '../../support/stack.ts';
import { newUser } from '../../support/users.ts';
import { insertReadyCards } from '../library/helpers.ts';
import { hiddenRuns, line, openPage, PASSWORD, PHONE, SCREENS, shoot, signUp, useBrowserStack, userIdOf } from './browser.ts';

// The phone: the installed app (manifest, service worker, icons), a share from another app into a
// card, Replay through a tunnel (answers kept with their times, sent once each, scheduled as if
// live) with an update held back until the session ends, and captures queued offline.

let stack: Stack;
let browser: Browser;
useBrowserStack((started) => ({ stack, browser } = started));

const sql = <T>(statement: string, params: unknown[]) => stack.orm.em.fork().execute<T[]>(statement, params);

/** The service worker's registration as the page sees it (evaluated through the debugging protocol, which the page's CSP does not govern). */
const workerState = (page: Page) =>
  page.evaluate<{ active: boolean; waiting: boolean; controlled: boolean }>(`navigator.serviceWorker.getRegistration()
    .then((r) => ({ active: Boolean(r && r.active), waiting: Boolean(r && r.waiting), controlled: navigator.serviceWorker.controller !== null }))`);
const untilWorker = (page: Page, state: 'active' | 'waiting' | 'controlled') =>
  vi.waitFor(async () => expect((await workerState(page))[state]).toBe(true), { timeout: 20_000, interval: 100 });

/** Waits until the service worker controls the page (a reload after its first install). */
async function controlled(page: Page) {
  await untilWorker(page, 'active');
  await page.reload();
  await untilWorker(page, 'controlled');
}

/** Each review's rating and the card's schedule after it, its due date as a time after the review. */
const STATE_AFTER = `c.text, r.rating, s.state, s.stability, s.difficulty, s.scheduled_days, s.reps, s.lapses, s.last_review = r.reviewed_at AS last,
  extract(epoch FROM s.due - s.last_review) AS due_after FROM review_logs r JOIN cards c ON c.id = r.card_id JOIN card_schedules s ON s.card_id = r.card_id`;

/** The answers kept on the device (IndexedDB), as the page queued them. */
const keptAnswers = (page: Page) =>
  page.evaluate<{ completion: Record<string, unknown> & { itemId: string; answeredAt: string } }[]>(`new Promise((resolve, reject) => {
    const open = indexedDB.open('lcs-offline');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const read = open.result.transaction('answers').objectStore('answers').getAll();
      read.onsuccess = () => resolve(read.result);
    };
  })`);

describe('the installed app', () => {
  it(
    'is installable: manifest, icons, a service worker with a fetch handler, all under the CSP; a share arrives signed out and becomes a card',
    {
      timeout: 120_000,
    },
    async () => {
      const { context, page, errors } = await openPage(browser, stack.baseUrl, PHONE);
      onTestFailed(() => page.screenshot({ path: `${SCREENS}/phone-app-failed.png` }).then(() => {}));
      const manifestReply = await context.request.get('/manifest.webmanifest');
      expect(manifestReply.headers()['content-type']).toMatch(/^application\/manifest\+json/);
      const manifest = await manifestReply.json();
      expect(manifest).toMatchObject({ id: '/', start_url: '/library', scope: '/', display: 'standalone', theme_color: '#2f5d50' });
      expect(manifest.share_target).toEqual({ action: '/capture', method: 'GET', params: { title: 'title', text: 'text', url: 'url' } });
      const icons = [...manifest.icons, { src: '/icons/apple-touch-icon-180.png', sizes: '180x180' }];
      for (const icon of icons as { src: string; sizes: string }[]) {
        const png = await context.request.get(icon.src);
        expect(png.headers()['content-type']).toBe('image/png');
        const bytes = await png.body();
        // The PNG header's width and height, as the manifest says.
        expect(`${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`).toBe(icon.sizes);
      }
      expect(manifest.icons.some((icon: { purpose?: string }) => icon.purpose === 'maskable')).toBe(true);
      const sw = await context.request.get('/sw.js');
      expect(sw.headers()['cache-control']).toBe('no-cache');
      expect(sw.headers()['content-security-policy']).toContain("default-src 'self'");

      // Signed out, a sentence and its page's address arrive from another app's share sheet.
      const sentence = 'We had a picnic on the bank of the river.';
      await page.goto(`/capture?${new URLSearchParams({ title: 'River walks', text: sentence, url: 'https://news.example/river' }).toString()}`);
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await controlled(page);
      // Chromium's own verdict: nothing in the way of installing but the test's context, which is a private window's.
      const cdp = await context.newCDPSession(page);
      const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
      expect(installabilityErrors.map((e) => e.errorId)).toEqual(['in-incognito']);

      await page.goto('/sign-up');
      await page.getByLabel('Email').fill(`learner-${crypto.randomUUID()}@example.test`);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByLabel('My language').selectOption('fr');
      await page.getByRole('button', { name: 'Start capturing' }).click();
      // The share kept through sign-in opens now: the sentence only, the link named and not kept.
      const area = page.getByLabel('The sentence');
      expect(await area.inputValue()).toBe(sentence);
      await page.getByText('Shared from “River walks”. The link and title are not saved with the card.').waitFor();
      await shoot(page, 'share-capture');
      const start = sentence.indexOf('bank');
      // The learner's selection (a long press on a phone): the textarea's own range.
      await area.evaluate((el, [from, to]) => (el as unknown as { setSelectionRange(a: number, b: number): void }).setSelectionRange(from, to), [
        start,
        start + 4,
      ] as const);
      await page.getByRole('button', { name: 'Use the selection' }).click();
      expect(await page.getByLabel('The expression to learn').inputValue()).toBe('bank');
      await shoot(page, 'share-marked');
      await page.getByRole('button', { name: 'Save' }).click();
      await line(page, 'bank').getByText('Ready').waitFor({ timeout: 30_000 });
      const userId = await userIdOf(page);
      const contexts = await sql<{ text: string; card_text: string }>(
        `SELECT x.text, c.text AS card_text FROM card_contexts x JOIN cards c ON c.id = x.card_id WHERE x.user_id = ?`,
        [userId],
      );
      expect(contexts).toEqual([{ text: sentence, card_text: 'bank' }]);
      const stored = await sql<{ n: number }>(
        `SELECT count(*)::int AS n FROM cards c LEFT JOIN card_contexts x ON x.card_id = c.id
       WHERE c.user_id = ? AND (c::text LIKE '%news.example%' OR x::text LIKE '%news.example%' OR c::text LIKE '%River walks%')`,
        [userId],
      );
      expect(stored[0]!.n).toBe(0);

      // A share of a link only says what to do instead.
      await page.goto(`/capture?${new URLSearchParams({ url: 'https://news.example/river' }).toString()}`);
      await page.getByText('Only a link was shared, and a link cannot be learned.', { exact: false }).waitFor();
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it(
    'goes on with Replay offline: 10 answers kept with their times, sent once each as if live; an update waits for the session to end',
    {
      timeout: 150_000,
    },
    async () => {
      const { context, page, errors } = await openPage(browser, stack.baseUrl, PHONE);
      onTestFailed(() => page.screenshot({ path: `${SCREENS}/phone-app-failed.png` }).then(() => {}));
      await signUp(page);
      const userId = await userIdOf(page);
      await insertReadyCards(stack, userId, 10);
      await controlled(page);
      await page
        .getByRole('link', { name: /^Replay/ })
        .first()
        .click();
      await page.getByRole('button', { name: 'Start Replay' }).click();
      await page.getByText('Item 1 of 10').waitFor();
      const session = await (await context.request.get(`/trpc/replay.session?input=${encodeURIComponent(JSON.stringify({ count: '10' }))}`)).json();
      const byPrompt = new Map((session.result.data.items as { prompt: string; answer: string; mask: string }[]).map((item) => [item.prompt, item]));

      // A new version arrives mid-session (a worker script the page has not run: as after a deploy), installs and waits, and is not offered.
      await page.evaluate(`navigator.serviceWorker.register('/sw.js?next-version')`);
      await untilWorker(page, 'waiting');

      await context.setOffline(true);
      for (let i = 1; i <= 10; i += 1) {
        await page.getByText(new RegExp(`^Item ${i} of 10`)).waitFor();
        const item = byPrompt.get((await page.locator('blockquote.prompt').textContent())!)!;
        if (i % 3 === 0) await page.getByRole('button', { name: 'Show answer' }).click();
        else {
          const slots = page.getByRole('textbox', { name: /^Missing letters/ });
          for (const [k, run] of hiddenRuns(item.answer, item.mask).entries()) await slots.nth(k).fill(run);
          await page.getByRole('button', { name: 'Check' }).click();
        }
        await page.getByRole('heading', { name: 'Kept on this device' }).waitFor();
        await page.getByText(`Offline: ${i} answer${i === 1 ? '' : 's'} will be sent when you are back online.`).waitFor();
        if (i === 10) await shoot(page, 'replay-offline');
        expect(await page.getByRole('button', { name: 'Reload' }).count()).toBe(0);
        await page.getByRole('button', { name: i === 10 ? 'Finish' : 'Next item' }).click();
      }
      // The session over, the update is offered.
      await page.getByRole('button', { name: 'Reload' }).waitFor();
      const kept = await keptAnswers(page);
      expect(kept).toHaveLength(10);

      await context.setOffline(false);
      await page.getByText(/^Sending|^Offline/).waitFor({ state: 'detached', timeout: 30_000 });
      const reviews = await sql<{ replay_item_id: string; reviewed_at: string; text: string } & Record<string, unknown>>(
        `SELECT r.replay_item_id, r.reviewed_at, ${STATE_AFTER} WHERE r.user_id = ? ORDER BY c.text`,
        [userId],
      );
      expect(reviews).toHaveLength(10);
      const answeredAt = new Map(kept.map(({ completion }) => [completion.itemId, completion.answeredAt]));
      for (const review of reviews) expect(new Date(review.reviewed_at).toISOString()).toBe(answeredAt.get(review.replay_item_id));

      // The same answers sent live by another learner with the same cards: the same ratings and states.
      const live = await newUser(stack);
      await insertReadyCards(stack, live.userId, 10);
      const rest = api(stack, { token: live.token });
      const liveItems = bodyOf(await rest.GET('/api/replay', { params: { query: { count: '10' } } }), 200).items;
      const evidence = new Map(kept.map(({ completion: { itemId, answeredAt: _at, ...rest } }) => [itemId, rest]));
      const textOfItem = new Map(reviews.map((r) => [r.text, r.replay_item_id]));
      for (const item of liveItems) {
        const sent = evidence.get(textOfItem.get(item.answer)!)!;
        bodyOf(
          await rest.POST('/api/replay', { body: { ...(sent as { usedHint: boolean; autoFilled: boolean; unaidedErrors: number }), itemId: item.itemId } }),
          200,
        );
      }
      const liveReviews = await sql<Record<string, unknown>>(`SELECT ${STATE_AFTER} WHERE r.user_id = ? ORDER BY c.text`, [live.userId]);
      expect(reviews.map(({ replay_item_id: _id, reviewed_at: _at, ...state }) => state)).toEqual(liveReviews);
      expect(new Set(reviews.map((r) => r.rating)).size).toBeGreaterThan(1);

      // Sent once each: sending the kept answers again counts nothing more, and another time conflicts.
      const again = await page.evaluate<number[], { completion: unknown }[]>(
        (answers) =>
          Promise.all(
            answers.map(({ completion }) =>
              fetch('/api/replay', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(completion) }).then((r) => r.status),
            ),
          ),
        kept,
      );
      expect(again).toEqual(Array(10).fill(200));
      const [first] = kept;
      const elsewhere = { ...first!.completion, answeredAt: new Date(Date.parse(first!.completion.answeredAt) + 1000).toISOString() };
      const conflict = await page.evaluate<number, unknown>(
        (body) => fetch('/api/replay', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.status),
        elsewhere,
      );
      expect(conflict).toBe(409);
      expect(await sql(`SELECT 1 FROM review_logs WHERE user_id = ?`, [userId])).toHaveLength(10);

      // Waited for from before the click: the new version may take over and load before a wait begun after it.
      await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Reload' }).click()]);
      await page.getByRole('heading', { name: 'Replay' }).waitFor();
      // The new version took over. (Not "no Reload button": the reloaded app registers /sw.js again, which for this
      // test's stand-in version, another URL, is itself a new version that installs and is offered, sooner or later.)
      expect(await page.evaluate<string | undefined>('navigator.serviceWorker.controller?.scriptURL')).toMatch(/\/sw\.js\?next-version$/);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it(
    'queues captures offline as waiting to be sent, opens offline from the service worker, sends them once back, and says which one was refused',
    { timeout: 120_000 },
    async () => {
      const { context, page, errors } = await openPage(browser, stack.baseUrl, PHONE);
      onTestFailed(() => page.screenshot({ path: `${SCREENS}/phone-app-failed.png` }).then(() => {}));
      await signUp(page);
      await controlled(page);
      await context.setOffline(true);
      await page.reload();
      await page.getByText('Your library is shown again when you are back online.').waitFor();
      const field = page.getByLabel('Capture an English expression');
      // One the service will refuse, which the page cannot tell: its sentence does not contain it.
      await page.getByLabel('The sentence you met it in', { exact: false }).fill('It rained all day.');
      for (const text of ['cut corners', 'spill the beans', 'spill the beans', 'under the weather']) {
        await field.fill(text);
        await field.press('Enter');
      }
      await page.getByText('“under the weather” is waiting to be sent.').waitFor();
      await page.getByText('Offline: 4 captures will be sent when you are back online.').waitFor();
      await shoot(page, 'capture-offline');
      await context.setOffline(false);
      await line(page, 'under the weather').getByText('Ready').waitFor({ timeout: 30_000 });
      await line(page, 'spill the beans').getByText('Ready').waitFor({ timeout: 30_000 });
      // The refused one is said, in the learner's words and why, not kept waiting nor sent again.
      const refused = page
        .getByRole('alert')
        .getByText('“cut corners”, captured offline, was not saved: The sentence must contain the expression', { exact: false });
      await refused.waitFor();
      await shoot(page, 'capture-offline-refused');
      const cards = await sql<{ text: string }>(`SELECT text FROM cards WHERE user_id = ? ORDER BY text`, [await userIdOf(page)]);
      expect(cards.map((c) => c.text)).toEqual(['spill the beans', 'under the weather']);
      expect(await page.getByText('is waiting to be sent').count()).toBe(0);
      expect(
        await page
          .getByRole('status')
          .filter({ hasText: /^Sending|^Kept on this device/ })
          .count(),
      ).toBe(0);
      await page.getByRole('button', { name: 'Dismiss' }).click();
      await refused.waitFor({ state: 'detached' });

      // Online, settled capture lines fold into one the learner can open; the newest stays in view.
      for (const text of ['break a leg', 'a piece of cake', 'on cloud nine']) {
        await field.fill(text);
        await field.press('Enter');
      }
      const folded = page.getByRole('list', { name: 'Your captures' }).locator('summary');
      await folded.filter({ hasText: /^2 ready/ }).waitFor({ timeout: 30_000 });
      await page.getByText(/^“on cloud nine” is ready: /).waitFor();
      await folded.click();
      await page.getByText(/^“break a leg” is ready: /).waitFor();
      await shoot(page, 'capture-folded');

      // A repeat load: the account and the Library's list start with the page (web/src/first-calls.ts) and are each asked once.
      const opening: string[] = [];
      const record = (request: Request) => opening.push(new URL(request.url()).pathname);
      page.on('request', record);
      await page.reload();
      await line(page, 'on cloud nine').waitFor();
      page.off('request', record);
      expect(opening.filter((path) => path === '/trpc/account.me' || path === '/trpc/library.list')).toEqual(['/trpc/account.me', '/trpc/library.list']);
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
