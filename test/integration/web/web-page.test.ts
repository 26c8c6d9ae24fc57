import { get } from 'node:http';
import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PASSWORD_MIN_LENGTH } from '../../../src/domain/limits.ts';
import { webBuildDir } from '../../../src/platform/web-build.ts';
import type { Stack } from '../../support/stack.ts';
import {
  DESKTOP,
  hiddenRuns,
  line,
  openPage as openPageIn,
  openSection,
  PASSWORD,
  PHONE,
  SCREENS,
  shoot as shootPage,
  signUp,
  useBrowserStack,
} from './browser.ts';
import { api, rawHttp } from '../../support/api.ts';

// The learner's web app in a real browser (Debian's Chromium driven by playwright-core) against the
// real service and the fake provider: every screen, at desktop and phone sizes, one shared browser.

let stack: Stack;
let browser: Browser;

useBrowserStack((started) => ({ stack, browser } = started));

const openPage = (viewport: { width: number; height: number }) => openPageIn(browser, stack.baseUrl, viewport);

describe('web app', () => {
  it('is served as built files: index.html at each of its addresses, hashed assets kept a year', async () => {
    for (const path of ['/', '/library', '/library/5d0f7a59-1d1c-4a53-9c59-2f0e4a3d6b7e', '/replay', '/settings', '/sign-in', '/draft']) {
      const page = await rawHttp(stack, 'GET', path);
      expect(page.status, path).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('cache-control')).toBe('no-cache');
      expect(page.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    }
    // An address the app had before, kept for bookmarks: sent on to the screen's address now, with its query.
    const moved = await fetch(`${stack.baseUrl}/write?from=bookmark`, { redirect: 'manual' });
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe('/draft?from=bookmark');
    const html = await (await fetch(`${stack.baseUrl}/library`)).text();
    const script = /src="(\/assets\/index-[\w-]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await rawHttp(stack, 'GET', script!);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // Compressed at build time, sent to whoever accepts it; the bytes as built to whoever does not.
    for (const [encoding, expected] of [
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['identity', null],
    ] as const) {
      const sent = await rawGet(`${stack.baseUrl}${script}`, encoding);
      expect(sent.encoding).toBe(expected);
      if (expected) expect(sent.bytes).toBeLessThan(asset.text.length / 2);
      else expect(sent.bytes).toBe(Buffer.byteLength(asset.text));
    }
    expect((await rawHttp(stack, 'GET', '/assets/missing.js')).status).toBe(404);
    expect((await rawHttp(stack, 'GET', '/assets/..%2f..%2fpackage.json')).status).not.toBe(200);
    // A build written while the service runs is served at once: its index.html names files the service did not have at its start.
    const late = join(webBuildDir, 'assets', `late-${randomUUID()}.js`);
    writeFileSync(late, 'export {};');
    try {
      expect((await rawHttp(stack, 'GET', `/assets/${basename(late)}`)).status).toBe(200);
    } finally {
      rmSync(late);
    }
    expect((await rawHttp(stack, 'GET', '/nowhere')).status).toBe(404);
    expect((await rawHttp(stack, 'GET', '/api/nowhere')).headers.get('content-type')).toMatch(/problem\+json/);
    const openapi = await rawHttp(stack, 'GET', '/api/openapi.json');
    expect(Object.keys(openapi.body.paths).filter((p) => p === '/' || p.startsWith('/assets') || p.startsWith('/library'))).toEqual([]);
  });

  it('takes a learner from sign-up through capture, details, search, Replay, tokens and sign-out (desktop)', { timeout: 120_000 }, async () => {
    const { context, page, errors } = await openPage(DESKTOP);
    // Checked in the page before sending, and said next to the field.
    await page.goto('/sign-up');
    await page.getByLabel('Email').fill('not an address');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Enter a valid email address.').waitFor();
    await page.getByText(`Use at least ${PASSWORD_MIN_LENGTH} characters.`).waitFor();
    expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    const email = await signUp(page);
    await page.getByText('500 credits', { exact: true }).waitFor();

    // Capture: saved at once, prepared in the background (slowed down so "preparing" is seen).
    stack.fake.setLatency(1500);
    await page.getByLabel('Capture an English expression').fill('break a leg');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved “break a leg”, preparing…').waitFor();
    await line(page, 'break a leg').getByText('Preparing…').waitFor();
    stack.fake.setLatency(0);
    await line(page, 'break a leg').getByText('Ready').waitFor({ timeout: 30_000 });
    await page.getByText('“break a leg” is ready: [fr] break a leg').waitFor();
    await page
      .getByText(/^\d+ credits$/)
      .filter({ hasNotText: '500 credits' })
      .waitFor(); // preparation was charged

    await page.getByLabel('Capture an English expression').fill('Break a leg!');
    await page.keyboard.press('Enter');
    await page.getByText('“break a leg” is already in your library.').waitFor();
    await page.getByLabel('Capture an English expression').fill('see you later');
    await page.getByRole('button', { name: 'Save' }).click();
    await line(page, 'see you later').getByText('Ready').waitFor({ timeout: 30_000 });

    // Details at their own address; Back returns to the list.
    await page.getByRole('link', { name: 'break a leg: details' }).click();
    await page.getByRole('heading', { name: 'break a leg', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/library\/[\w-]+$/);
    await page.getByText('[fr] How to use: break a leg').waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'break a leg', level: 1 }).waitFor();
    await page.goBack();
    await line(page, 'see you later').waitFor();

    // Search narrows the list, and the search is in the address.
    await page.getByRole('searchbox', { name: 'Search your library' }).fill('leg');
    await page.getByRole('button', { name: 'Search' }).click();
    await line(page, 'see you later').waitFor({ state: 'detached' });
    expect(page.url()).toMatch(/\/library\?q=leg$/);

    // Replay: a wrong try, a hint, then the right letters; the second item by "show answer".
    await page.getByRole('link', { name: 'Replay' }).click();
    await page.getByRole('button', { name: 'Start Replay' }).click();
    await page.getByText('Item 1 of 2').waitFor();
    const session = await (await context.request.get(`/trpc/replay.session?input=${encodeURIComponent(JSON.stringify({ count: '10' }))}`)).json();
    const items = session.result.data.items as { prompt: string; answer: string; mask: string }[];
    const replay = page.getByRole('region', { name: 'Replay' });
    const shown = await Promise.all(items.map((item) => replay.getByText(item.prompt, { exact: true }).isVisible()));
    const first = items[shown.indexOf(true)]!;
    const runs = hiddenRuns(first.answer, first.mask);
    const inputs = replay.getByRole('textbox', { name: /^Missing letters/ });
    await inputs.first().fill('zz');
    await page.getByRole('button', { name: 'Check' }).click();
    await page.getByText(/^Not quite/).waitFor();
    await inputs.first().fill('');
    await page.getByRole('button', { name: 'Hint' }).click();
    await page.getByText(`Hint: the next letter is “${Array.from(runs[0]!)[0]}”.`).waitFor();
    for (const [i, run] of runs.entries()) await inputs.nth(i).fill(run.toUpperCase()); // case-insensitive
    await page.getByRole('button', { name: 'Check' }).click();
    const feedback = page.getByRole('region', { name: 'Feedback' });
    await feedback.getByRole('heading', { name: 'Got it, with some help.' }).waitFor();
    await feedback.getByText(/^Next review/).waitFor();
    await page.getByRole('button', { name: 'Next item' }).click();
    await page.getByText('Item 2 of 2').waitFor();
    await page.getByRole('button', { name: 'Show answer' }).click();
    await feedback.getByRole('heading', { name: 'This one comes back soon.' }).waitFor();
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.getByText('Session complete: you practised 2 expressions.').waitFor();

    // A token is shown once, works, and stops working once revoked.
    await openSection(page, 'Settings');
    await page.getByLabel('Name').fill('my extension');
    await page.getByLabel('Access').selectOption('read');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByRole('heading', { name: 'Token “my extension” created' }).waitFor();
    const token = await page.getByRole('textbox', { name: 'New token' }).inputValue();
    expect((await api(stack, { token }).GET('/api/credits')).status).toBe(200);
    await page.getByRole('button', { name: 'Done' }).click();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Revoke token “my extension”' }).click();
    await page.getByText('Token “my extension” revoked.').waitFor();
    expect((await api(stack, { token }).GET('/api/credits')).status).toBe(401);

    // Sign out; a wrong password is explained; signing back in lands in the library.
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.reload();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not the passphrase');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').getByText('Email or password is wrong.').waitFor();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await line(page, 'break a leg').waitFor();

    // A failed preparation is retried from its line; a card is deleted from its details.
    stack.fake.setMode('privacy_refusal');
    await page.getByLabel('Capture an English expression').fill('hold your horses');
    await page.getByRole('button', { name: 'Save' }).click();
    await line(page, 'hold your horses').getByText('Preparation failed').waitFor({ timeout: 30_000 });
    stack.fake.setMode('ok');
    await page.getByRole('button', { name: 'Try again: prepare “hold your horses”' }).click();
    await line(page, 'hold your horses').getByText('Ready').waitFor({ timeout: 30_000 });
    await page.getByRole('link', { name: 'hold your horses: details' }).click();
    await page.getByRole('button', { name: 'Delete “hold your horses”' }).click();
    await page.getByText('Deleted “hold your horses”.').waitFor();
    await line(page, 'hold your horses').waitFor({ state: 'detached' });

    // Signing out everywhere ends the sessions opened elsewhere too.
    const elsewhere = await api(stack).POST('/api/auth/login', { body: { email, password: PASSWORD } });
    const otherCookie = elsewhere.headers.get('set-cookie')!.split(';')[0]!;
    await openSection(page, 'Settings');
    // Which host receives the learner's text: here the router's (the test's fake at its address).
    await page.getByText(`sent to the model router at ${new URL(stack.config.model.baseUrl).host}`).waitFor();
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByText('You are signed out on every device.').waitFor();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect((await api(stack).GET('/api/me', { headers: { cookie: otherCookie } })).status).toBe(401);

    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows every screen at phone size without sideways scrolling (screenshots in test-results/screens)', { timeout: 90_000 }, async () => {
    const { context, page, errors } = await openPage(PHONE);
    const shoot = (name: string) => shootPage(page, name);
    await page.goto('/sign-in');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // First load on a fresh context (empty cache): recorded beside the screenshots for the notes.
    const firstLoad = await page.evaluate<{ loadMs: number; bytes: number }>(`(() => {
      const nav = performance.getEntriesByType('navigation')[0];
      const bytes = performance.getEntriesByType('resource').reduce((sum, r) => sum + r.transferSize, nav.transferSize);
      return { loadMs: Math.round(nav.loadEventEnd), bytes };
    })()`);
    writeFileSync(`${SCREENS}/first-load.json`, JSON.stringify(firstLoad));
    await shoot('sign-in');
    await signUp(page);
    for (const text of ['call it a day', 'under the weather']) {
      await page.getByLabel('Capture an English expression').fill(text);
      await page.getByRole('button', { name: 'Save' }).click();
      await line(page, text).getByText('Ready').waitFor({ timeout: 30_000 });
    }
    await shoot('library');
    await page.getByRole('link', { name: 'call it a day: details' }).click();
    await page.getByRole('heading', { name: 'call it a day', level: 1 }).waitFor();
    await shoot('card');
    await page.getByRole('link', { name: 'Replay' }).click();
    await page.getByRole('button', { name: 'Start Replay' }).click();
    await page.getByText('Item 1 of 2').waitFor();
    await shoot('replay');
    await openSection(page, 'Settings');
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await shoot('settings');
    expect(errors).toEqual([]);
    await context.close();
  });
});

/** A GET that leaves the body as sent (fetch would decompress it), with the Accept-Encoding given. */
function rawGet(url: string, acceptEncoding: string): Promise<{ encoding: string | null; bytes: number }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on('end', () => resolve({ encoding: res.headers['content-encoding'] ?? null, bytes }));
    }).on('error', reject);
  });
}
