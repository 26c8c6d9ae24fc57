import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../support/stack.ts';
import { connectBrowser } from './browser.ts';

// The API reference at /docs in a real browser, under the strict headers every answer carries:
// swagger-ui must still render, with no CSP violation.

let stack: Stack;
let browser: Browser;
beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack({ worker: false }), connectBrowser()]);
  mkdirSync('test-results', { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('API reference page', () => {
  it('renders every operation under its Content-Security-Policy', async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 1400 } });
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    const response = await page.goto(`${stack.baseUrl}/docs`);
    expect(response?.status()).toBe(200);
    await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
    expect(await page.locator('.opblock').count()).toBeGreaterThan(20);
    await expect.poll(() => page.locator('.info .title').textContent()).toContain('Language Capture Service');
    await page.screenshot({ path: 'test-results/docs-page.png' });
    expect(errors).toEqual([]);
    await page.close();
  });
});
