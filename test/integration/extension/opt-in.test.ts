import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CONTEXT_MAX } from '../../../src/domain/limits.ts';
import { api, bodyOf } from '../../support/api.ts';
import type { Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { dragSelect, extensionUi, SCREENS, translatedBlocks, useExtension, type Extension, type ExtensionSetUp } from './harness.ts';

// The two opt-in settings (both off by default), in Chromium against the real service and the
// fake provider: "Send the sentence around my selection" (a capture's context) and "Count when I
// meet my expressions" (POST /api/encounters for the known expressions underlined on a page).
// What is sent is read at the recording proxy, what is kept from the service's own answers.

let stack: Stack;
let extension: Extension;
let fixtures: ExtensionSetUp['fixtures'];
let proxy: ExtensionSetUp['proxy'];
useExtension((setUp) => ({ stack, extension, fixtures, proxy } = setUp));

/** fixtures/met.html: its title, six paragraphs. */
const MET_BLOCKS = 7;
/** The expressions of fixtures/met.html (8 occurrences of 4 cards), and one card not on it. */
const ON_THE_PAGE = ['go ahead with', 'a drop in the ocean', 'kicking the can down the road', 'at the eleventh hour'];
const ELSEWHERE = 'break a leg';

/** Ready cards written directly (preparing them through the API is covered elsewhere): text → cardId. */
async function insertCards(userId: string, texts: readonly string[]): Promise<Map<string, string>> {
  const rows = await stack.orm.em.fork().execute<{ id: string; text: string }[]>(
    `INSERT INTO cards (id, user_id, text, normalised_key, enrichment_status, enrichment, enrichment_attempt, created_at)
     SELECT gen_random_uuid(), ?, t, t, 'ready',
            jsonb_build_object('translation', '[fr] ' || t, 'correctedText', null, 'correctionNote', null,
              'usage', jsonb_build_object('register', 'neutral', 'guidance', 'g', 'examples', jsonb_build_array()), 'focuses', jsonb_build_array()), 1, now()
     FROM jsonb_array_elements_text(?::jsonb) AS t RETURNING id, text`,
    [userId, JSON.stringify(texts)],
  );
  await stack.orm.em.fork().execute(
    `INSERT INTO card_schedules (card_id, user_id, due, stability, difficulty, elapsed_days, scheduled_days, learning_steps, reps, lapses, state)
     SELECT id, user_id, created_at, 0, 0, 0, 0, 0, 0, 0, 'new' FROM cards WHERE user_id = ? ON CONFLICT DO NOTHING`,
    [userId],
  );
  return new Map(rows.map((r) => [r.text, r.id]));
}

const cardOf = async (user: TestUser, cardId: string) =>
  bodyOf(await api(stack, { token: user.token }).GET('/api/library/{cardId}', { params: { path: { cardId } } }), 200).card;
const encounterRequests = (from: number) => proxy.exchanges.slice(from).filter((e) => e.path === '/api/encounters');
const captureRequests = (from: number) => proxy.exchanges.slice(from).filter((e) => e.path === '/api/library' && e.requestBody !== null);

/** Opens a fixture page (translated as it opens) and waits for its blocks' translations and the underlines. */
async function read(name: string, blocks: number): Promise<Page> {
  const page = await extension.context.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(fixtures.url(name));
  await expect.poll(() => translatedBlocks(page).count(), { timeout: 60_000 }).toBe(blocks);
  await expect.poll(() => extensionUi(page).count('.marks .mark'), { timeout: 20_000 }).toBeGreaterThan(0);
  return page;
}

async function captureByButton(page: Page, selector: string): Promise<void> {
  await dragSelect(page, selector);
  const ui = extensionUi(page);
  await expect.poll(() => ui.shown('.capture'), { timeout: 10_000 }).toBe(true);
  await ui.click('.capture');
  await expect.poll(() => ui.toast(), { timeout: 30_000 }).toMatch(/^(Saved|Already)/);
}

/** Stops the extension's service worker (as when it naps), from chrome://serviceworker-internals; the next event starts it again. */
async function stopWorker(): Promise<void> {
  const internals = await extension.context.newPage();
  await internals.goto('chrome://serviceworker-internals/');
  await expect.poll(() => internals.locator('body').innerText()).toContain('Running Status: RUNNING');
  await internals.getByRole('button', { name: 'Stop' }).first().click();
  await expect.poll(() => internals.locator('body').innerText()).toContain('Running Status: STOPPED');
  await internals.close();
}

/** Longer than the worker's quiet wait before a page view's batch goes (3 s), with room for a slow machine. */
const SETTLE_MS = 5_000;

describe('with both settings off (the default)', () => {
  it('a capture sends the selection only, and reading a page of known expressions reports no encounter', async () => {
    const learner = await newUser(stack);
    const cards = await insertCards(learner.userId, [...ON_THE_PAGE, ELSEWHERE]);
    await extension.configure({ serviceUrl: proxy.url, token: learner.token, autoTranslateSites: ['127.0.0.1'] });
    const from = proxy.exchanges.length;
    const page = await read('met.html', MET_BLOCKS);
    await captureByButton(page, '#six > b');
    await page.waitForTimeout(SETTLE_MS);

    expect(captureRequests(from).map((e) => e.requestBody)).toEqual([{ text: 'a fresh start' }]);
    expect(encounterRequests(from)).toEqual([]);
    const captured = bodyOf(await api(stack, { token: learner.token }).GET('/api/library'), 200).items.find((c) => c.text === 'a fresh start')!;
    expect((await cardOf(learner, captured.cardId)).contexts).toEqual([]);
    for (const cardId of cards.values()) expect((await cardOf(learner, cardId)).metCount).toBe(0);
    await page.close();
  });
});

describe('Send the sentence around my selection', () => {
  it('is off until turned on in the options, which say exactly what is sent', async () => {
    const page = await extension.context.newPage();
    await page.goto(`chrome-extension://${extension.id}/src/options/index.html`);
    const sentence = page.getByLabel('Send the sentence around my selection');
    const count = page.getByLabel('Count when I meet my expressions');
    expect(await sentence.isChecked()).toBe(false);
    expect(await count.isChecked()).toBe(false);
    expect(await page.locator('#send-context-hint').innerText()).toMatch(/the sentence around your selection .*never the page’s address or other text/);
    expect(await page.locator('#count-encounters-hint').innerText()).toMatch(/card ids and times only.*never the page’s text or address/);
    await sentence.check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Saved.');
    const stored = await page.evaluate(() => (globalThis as any).chrome.storage.local.get(null));
    expect(stored).toMatchObject({ sendContext: true, countEncounters: false });
    await page.screenshot({ path: `${SCREENS}/extension-options-opt-in.png`, fullPage: true });
    await page.close();
  });

  it('when on, a capture carries the sentence it was selected in (not the paragraph), and the card shows it as a context', async () => {
    const learner = await newUser(stack);
    await extension.configure({ serviceUrl: proxy.url, token: learner.token, sendContext: true });
    const from = proxy.exchanges.length;
    const page = await extension.context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(fixtures.url('met.html'));
    await captureByButton(page, '#six > b');
    const sentence = 'After the vote, the mayor promised a fresh start for them.';
    expect(captureRequests(from).map((e) => e.requestBody)).toEqual([{ text: 'a fresh start', context: sentence }]);
    const cardId = captureRequests(from)[0]!.responseBody.card.cardId as string;
    expect((await cardOf(learner, cardId)).contexts.map((c) => c.text)).toEqual([sentence]);
    // Nothing else of the page travelled: no address, no other sentence.
    for (const exchange of proxy.exchanges.slice(from))
      expect(JSON.stringify(exchange.requestBody ?? '')).not.toMatch(/met\.html|127\.0\.0\.1|empty for years|Work begins/);
    await page.close();
  });

  it('a sentence longer than the service takes is cut to whole words around the selection, within 500 characters', async () => {
    const learner = await newUser(stack);
    await extension.configure({ serviceUrl: proxy.url, token: learner.token, sendContext: true });
    const from = proxy.exchanges.length;
    const page = await extension.context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(fixtures.url('long-sentence.html'));
    const whole = (await page.locator('#long').innerText()).replace(/^The meeting opened at seven\. | The meeting closed at ten\.$/g, '');
    expect([...whole].length).toBeGreaterThan(CONTEXT_MAX);
    await captureByButton(page, '#long > b');
    const [request] = captureRequests(from).map((e) => e.requestBody as { text: string; context: string });
    expect(request!.text).toBe('bite the bullet');
    const context = request!.context;
    expect([...context].length).toBeLessThanOrEqual(CONTEXT_MAX);
    expect([...context].length, context).toBeGreaterThan(CONTEXT_MAX - 40); // about as much as fits, not a stub
    expect(whole).toContain(context); // a window of the sentence, nothing of the sentences around it
    expect(context).toContain('bite the bullet');
    // Whole words at both edges: the window starts after a space (or at the sentence's start) and ends before one.
    const at = whole.indexOf(context);
    expect(at === 0 || whole[at - 1] === ' ').toBe(true);
    expect(whole[at + context.length] === undefined || /[\s,.]/.test(whole[at + context.length]!)).toBe(true);
    const cardId = captureRequests(from)[0]!.responseBody.card.cardId as string;
    expect((await cardOf(learner, cardId)).contexts.map((c) => c.text)).toEqual([context]);
    await page.close();
  });
});

describe('Count when I meet my expressions', () => {
  it('reports a page view’s underlined cards in one batch, each once: ids and times only; reloads in the same tab count nothing more', async () => {
    const learner = await newUser(stack);
    const cards = await insertCards(learner.userId, [...ON_THE_PAGE, ELSEWHERE]);
    await extension.configure({ serviceUrl: proxy.url, token: learner.token, autoTranslateSites: ['127.0.0.1'], countEncounters: true });
    const from = proxy.exchanges.length;
    const page = await read('met.html', MET_BLOCKS);
    await expect.poll(() => encounterRequests(from).length, { timeout: 20_000 }).toBe(1);
    // The page adds a paragraph with an expression already met: underlined, not counted again in this page view.
    await page.evaluate(() => {
      const doc = (globalThis as any).document;
      const p = doc.createElement('p');
      p.textContent = 'Late news: the new bench is a drop in the ocean as well.';
      doc.body.append(p);
    });
    await expect.poll(() => translatedBlocks(page).count(), { timeout: 30_000 }).toBe(MET_BLOCKS + 1);
    await page.waitForTimeout(SETTLE_MS);
    const [first, ...more] = encounterRequests(from);
    expect(more).toEqual([]);
    expect(first!.status).toBe(200);
    expect(Object.keys(first!.requestBody).sort()).toEqual(['encounters', 'pageViewId']);
    expect(first!.requestBody.encounters.map((e: { cardId: string }) => e.cardId).sort()).toEqual(ON_THE_PAGE.map((t) => cards.get(t)).sort());
    for (const encounter of first!.requestBody.encounters) expect(Object.keys(encounter).sort()).toEqual(['cardId', 'metAt']);
    expect(JSON.stringify(first!.requestBody)).not.toMatch(/met\.html|127\.0\.0\.1|drop|ocean|harbour/i);
    for (const text of ON_THE_PAGE) expect((await cardOf(learner, cards.get(text)!)).metCount).toBe(1);
    expect((await cardOf(learner, cards.get(ELSEWHERE)!)).metCount).toBe(0);

    // The page reloads itself four times (four page views, well within ten minutes): the cards
    // were reported from this tab already, so nothing more is counted. Halfway, the service worker
    // is stopped (as when it naps): what it remembers is kept in session storage.
    for (let reload = 0; reload < 4; reload++) {
      if (reload === 2) await stopWorker();
      await Promise.all([page.waitForEvent('load'), page.evaluate(() => (globalThis as any).location.reload())]);
      await expect.poll(() => translatedBlocks(page).count(), { timeout: 30_000 }).toBe(MET_BLOCKS);
      await expect.poll(() => extensionUi(page).count('.marks .mark'), { timeout: 20_000 }).toBeGreaterThan(0);
    }
    // The same page in another tab is another encounter: counted, once.
    const other = await read('met.html', MET_BLOCKS);
    await expect.poll(() => encounterRequests(from).length, { timeout: 20_000 }).toBe(2);
    await page.waitForTimeout(SETTLE_MS);
    expect(encounterRequests(from)).toHaveLength(2);
    const second = encounterRequests(from)[1]!;
    expect(second.requestBody.pageViewId).not.toBe(first!.requestBody.pageViewId);
    expect(second.requestBody.encounters.map((e: { cardId: string }) => e.cardId).sort()).toEqual(ON_THE_PAGE.map((t) => cards.get(t)).sort());
    for (const text of ON_THE_PAGE) expect((await cardOf(learner, cards.get(text)!)).metCount).toBe(2);
    await other.close();
    await page.close();
  });

  it('drops a card deleted meanwhile (404) and sends the rest once more; a 429 is not retried for ever', async () => {
    const learner = await newUser(stack);
    const cards = await insertCards(learner.userId, ON_THE_PAGE);
    await extension.configure({ serviceUrl: proxy.url, token: learner.token, autoTranslateSites: ['127.0.0.1'], countEncounters: true });
    const from = proxy.exchanges.length;
    const page = await read('met.html', MET_BLOCKS);
    // The page got its list; the learner deletes a card before the batch goes.
    const deleted = cards.get('at the eleventh hour')!;
    expect((await api(stack, { token: learner.token }).DELETE('/api/library', { params: { query: { cardId: deleted } } })).status).toBe(204);
    await expect.poll(() => encounterRequests(from).map((e) => e.status), { timeout: 20_000 }).toEqual([404, 200]);
    await page.waitForTimeout(SETTLE_MS);
    expect(encounterRequests(from).map((e) => e.status)).toEqual([404, 200]);
    expect(encounterRequests(from)[1]!.requestBody.encounters.map((e: { cardId: string }) => e.cardId)).not.toContain(deleted);
    for (const text of ON_THE_PAGE.filter((t) => t !== 'at the eleventh hour')) expect((await cardOf(learner, cards.get(text)!)).metCount).toBe(1);

    // The day's limit reached (429 until the next UTC day): one request, then counting pauses; no retries.
    await stack.orm.em.fork().execute(
      `INSERT INTO encounter_days (user_id, day, recorded) VALUES (?, (now() AT TIME ZONE 'UTC')::date, 2000)
                ON CONFLICT (user_id, day) DO UPDATE SET recorded = 2000`,
      [learner.userId],
    );
    // (New tabs: a reload in the same tab would report nothing, its cards being counted from it already.)
    const limited = proxy.exchanges.length;
    const second = await read('met.html', MET_BLOCKS);
    await expect.poll(() => encounterRequests(limited).map((e) => e.status), { timeout: 20_000 }).toEqual([429]);
    const third = await read('met.html', MET_BLOCKS);
    await page.waitForTimeout(SETTLE_MS);
    expect(encounterRequests(limited).map((e) => e.status)).toEqual([429]);
    await third.close();
    await second.close();
    await page.close();
  });

  it('costs one request per page view on a 100-block article with 30 known expressions', async () => {
    const learner = await newUser(stack);
    const texts = [
      ...Array.from({ length: 25 }, (_, i) => `paragraph ${3 * (i + 1)}`),
      'the street lights',
      'the morning train',
      'a local baker',
      'every visitor',
      'the old harbour',
    ];
    const cards = await insertCards(learner.userId, texts);
    await extension.configure({ serviceUrl: proxy.url, token: learner.token, autoTranslateSites: ['127.0.0.1'], countEncounters: true });
    const from = proxy.exchanges.length;
    const page = await read('hundred.html', 100);
    await expect.poll(() => encounterRequests(from).length, { timeout: 20_000 }).toBeGreaterThan(0);
    await page.waitForTimeout(SETTLE_MS);
    const requests = encounterRequests(from);
    const reported = requests.flatMap((e) => e.requestBody.encounters.map((x: { cardId: string }) => x.cardId));
    const marks = await extensionUi(page).count('.marks .mark');
    console.info(
      `[extension] encounters: 100-block article, ${texts.length} known expressions (${marks} underlines): ` +
        `${requests.length} request(s) per page view, ${reported.length} cards reported`,
    );
    expect(requests.map((e) => e.status)).toEqual([200]);
    expect(new Set(reported)).toEqual(new Set(cards.values()));
    await page.close();
  });
});
