import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../support/stack.ts';

// The learner's page in a real browser (Debian's Chromium driven by playwright-core) against the
// real service: sign-up, languages, capture, preparation, search, Replay, tokens, sign-out.

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOTS = 'test-results';

let stack: Stack;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const consoleErrors: string[] = [];

beforeAll(async () => {
  [stack, browser] = await Promise.all([
    startStack(),
    chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    }),
  ]);
  context = await browser.newContext({ baseURL: stack.baseUrl, viewport: { width: 1100, height: 1000 } });
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
  // CSP violations and script errors surface here; failed requests (expected 401s) are not errors of the page.
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  mkdirSync(SCREENSHOTS, { recursive: true });
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await stack?.close();
});

/** The card in the library list whose heading is `text`. */
const card = (text: string) => page.getByRole('list', { name: 'Your library' }).getByRole('article', { name: text });

/** The hidden runs of a Replay item: the letters where the mask has '_'. */
function hiddenRuns(answer: string, mask: string): string[] {
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

describe('web page', () => {
  it('serves the page with a strict Content-Security-Policy, outside the OpenAPI document', async () => {
    const index = await stack.http('GET', '/');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/^text\/html/);
    expect(index.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    const script = await stack.http('GET', '/web/app.js');
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect((await stack.http('GET', '/web/missing.js')).status).toBe(404);
    const openapi = await stack.http('GET', '/api/openapi.json');
    expect(Object.keys(openapi.body.paths).filter((p) => p === '/' || p.startsWith('/web'))).toEqual([]);
  });

  it('takes a learner from sign-up through capture, search, Replay, tokens, sign-out, retry and delete', { timeout: 90_000 }, async () => {
    const email = `learner-${randomUUID()}@example.test`;
    const password = 'a long passphrase';

    await page.goto('/');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByRole('button', { name: 'New here? Create an account' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    // The problem's detail and field errors, as the service words them.
    await page.getByRole('alert').getByText('password: at least 10 characters').waitFor();
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();

    // Languages first, so a capture never meets a 428.
    await page.getByRole('heading', { name: 'Set up your languages' }).waitFor();
    await page.getByLabel('I am learning').selectOption('en');
    await page.getByLabel('Translate into (my language)').selectOption('fr');
    await page.getByRole('button', { name: 'Start capturing' }).click();
    await page.getByRole('tab', { name: 'Library', selected: true }).waitFor();
    await page.getByText('500 credits', { exact: true }).waitFor();

    // Capture: saved at once, prepared in the background (slowed down so "preparing" is seen).
    stack.fake.setLatency(1500);
    await page.getByLabel('Capture an English expression').fill('break a leg');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved “break a leg”, preparing…').waitFor();
    await card('break a leg').getByText('Preparing…').waitFor();
    stack.fake.setLatency(0);
    await card('break a leg').getByText('[fr] break a leg').waitFor({ timeout: 30_000 });
    await card('break a leg').getByText('Ready').waitFor();
    await card('break a leg').getByText('[fr] How to use: break a leg').waitFor();
    await page.getByText('“break a leg” is ready: [fr] break a leg').waitFor();
    await page.getByText(/^\d+ credits$/).filter({ hasNotText: '500 credits' }).waitFor(); // preparation was charged

    // The same expression again reuses the card.
    await page.getByLabel('Capture an English expression').fill('Break a leg!');
    await page.keyboard.press('Enter');
    await page.getByText('“break a leg” is already in your library.').waitFor();
    expect(await card('break a leg').count()).toBe(1);

    await page.getByLabel('Capture an English expression').fill('see you later');
    await page.getByRole('button', { name: 'Save' }).click();
    await card('see you later').getByText('Ready').waitFor({ timeout: 30_000 });
    await page.screenshot({ path: `${SCREENSHOTS}/web-page.png`, fullPage: true });

    // Search narrows the list.
    await page.getByRole('searchbox', { name: 'Search your library' }).fill('leg');
    await page.getByRole('button', { name: 'Search' }).click();
    await card('see you later').waitFor({ state: 'detached' });
    await card('break a leg').waitFor();

    // Replay: a wrong try, a hint, then the right letters; the second item by "show answer".
    await page.getByRole('tab', { name: 'Replay' }).click();
    await page.getByRole('button', { name: 'Start Replay' }).click();
    await page.getByText('Item 1 of 2').waitFor();
    const session = await (await context.request.get(`/trpc/replay.session?input=${encodeURIComponent(JSON.stringify({ count: '10' }))}`)).json();
    const items = session.result.data.items as { prompt: string; answer: string; mask: string }[];
    expect(items).toHaveLength(2);
    // The item on screen (the session's first), whichever order the service chose.
    const replay = page.getByRole('tabpanel', { name: 'Replay' });
    const shown = await Promise.all(items.map((item) => replay.getByText(item.prompt, { exact: true }).isVisible()));
    const first = items[shown.indexOf(true)]!;
    expect(shown.filter(Boolean)).toHaveLength(1);
    const runs = hiddenRuns(first.answer, first.mask);
    const inputs = replay.getByRole('textbox', { name: /^Missing letters/ });
    expect(await inputs.count()).toBe(runs.length);
    await inputs.first().fill('zz');
    await page.getByRole('button', { name: 'Check' }).click();
    await page.getByText(/^Not quite/).waitFor();
    await inputs.first().fill('');
    await page.getByRole('button', { name: 'Hint' }).click();
    await page.getByText(`Hint: the next letter is “${Array.from(runs[0]!)[0]}”.`).waitFor();
    expect(await inputs.first().inputValue()).toBe(Array.from(runs[0]!)[0]);
    await page.screenshot({ path: `${SCREENSHOTS}/web-page-replay.png`, fullPage: true });
    for (const [i, run] of runs.entries()) await inputs.nth(i).fill(run.toUpperCase()); // case-insensitive
    await page.getByRole('button', { name: 'Check' }).click();
    const feedback = page.getByRole('region', { name: 'Feedback' });
    await feedback.getByRole('heading', { name: 'Got it, with some help.' }).waitFor();
    await feedback.getByText(first.answer, { exact: true }).waitFor();
    await feedback.getByText(first.prompt, { exact: true }).waitFor();
    await feedback.getByText(/^Next review/).waitFor();
    await page.getByRole('button', { name: 'Next item' }).click();
    await page.getByText('Item 2 of 2').waitFor();
    await page.getByRole('button', { name: 'Show answer' }).click();
    await feedback.getByRole('heading', { name: 'This one comes back soon.' }).waitFor();
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.getByText('Session complete: you practised 2 expressions.').waitFor();

    // A token is shown once, works, and stops working once revoked.
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByLabel('Name').fill('my extension');
    await page.getByLabel('Access').selectOption('read');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByRole('heading', { name: 'Token “my extension” created' }).waitFor();
    const token = await page.getByRole('textbox', { name: 'New token' }).inputValue();
    expect(token).toMatch(/^lcp_/);
    expect((await stack.http('GET', '/api/credits', { token })).status).toBe(200);
    await page.getByRole('button', { name: 'Copy' }).waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}/web-page-tokens.png`, fullPage: true });
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('textbox', { name: 'New token' }).waitFor({ state: 'detached' });
    expect(await page.getByText(token).count()).toBe(0);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Revoke token “my extension”' }).click();
    await page.getByText('Token “my extension” revoked.').waitFor();
    expect((await stack.http('GET', '/api/credits', { token })).status).toBe(401);

    // Sign out, a wrong password is explained, and signing back in lands in the library.
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not the passphrase');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').getByText('Email or password is wrong.').waitFor();
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await card('break a leg').waitFor();

    // A failed preparation is retried from its card; a card can be deleted.
    stack.fake.setMode('privacy_refusal');
    await page.getByLabel('Capture an English expression').fill('hold your horses');
    await page.getByRole('button', { name: 'Save' }).click();
    await card('hold your horses').getByText('Preparation failed').waitFor({ timeout: 30_000 });
    stack.fake.setMode('ok');
    await page.getByRole('button', { name: 'Try preparing “hold your horses” again' }).click();
    await card('hold your horses').getByText('Ready').waitFor({ timeout: 30_000 });
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete “hold your horses”' }).click();
    await card('hold your horses').waitFor({ state: 'detached' });
    await page.getByText('Deleted “hold your horses”.').waitFor();

    // Signing out everywhere ends the sessions opened elsewhere too.
    const elsewhere = await stack.http('POST', '/api/auth/login', { body: { email, password } });
    const otherCookie = elsewhere.headers.get('set-cookie')!.split(';')[0]!;
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByText('You are signed out on every device.').waitFor();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect((await stack.http('GET', '/api/me', { headers: { cookie: otherCookie } })).status).toBe(401);

    expect(consoleErrors).toEqual([]);
  });
});
