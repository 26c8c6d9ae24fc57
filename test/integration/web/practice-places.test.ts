import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SENTENCE_MAX_CHARS } from '../../../src/domain/limits.ts';
import type { Stack } from '../../support/stack.ts';
import { DESKTOP, openPage, openSection, PHONE, shoot, signUp, useBrowserStack } from './browser.ts';

// Sentences (one, or many lines in the background), audio, page translation and drafts (the spec's
// Output Flow) through the page, against the real service and the fake provider; desktop and phone.

let stack: Stack;
let browser: Browser;

useBrowserStack((started) => ({ stack, browser } = started));

const paste = (page: Page, label: string, text: string) => page.getByLabel(label).fill(text);

describe.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const)('sentences, audio, page translation and drafts (%s)', (size, viewport) => {
  it('saves sentences one at a time or many at once, plays them, translates a page and drafts English', { timeout: 150_000 }, async () => {
    const { context, page, errors } = await openPage(browser, stack.baseUrl, viewport);
    stack.fake.setCost('0.002'); // 6 credits a sentence, 200 a draft
    const email = await signUp(page);

    // One sentence: answered with its translation and its cost.
    await page.getByRole('link', { name: 'Sentences' }).click();
    // Checked before sending, and said next to the field.
    await paste(page, 'Sentences, one per line', `Fine.\n${'a'.repeat(SENTENCE_MAX_CHARS + 1)}`);
    await page.getByRole('button', { name: 'Translate and save' }).click();
    await page.getByText(`Line 2 is longer than ${SENTENCE_MAX_CHARS} characters: split it, or shorten it.`).waitFor();
    expect(await page.getByLabel('Sentences, one per line').getAttribute('aria-invalid')).toBe('true');
    await paste(page, 'Sentences, one per line', 'The train was late again.');
    await page.getByRole('button', { name: 'Translate and save' }).click();
    await page.getByRole('status').getByText('[fr] The train was late again.').waitFor();
    await page.getByText('Charged 6 credits.').waitFor();

    // Many lines: sent in the background with progress; a duplicate is that line's own answer.
    await paste(page, 'Sentences, one per line', 'I missed my stop.\n\nThe train was late again.\nThe next one comes in ten minutes.');
    await page.getByRole('button', { name: 'Translate and save' }).click();
    const upload = page.getByRole('region', { name: 'Upload' });
    await upload.getByText('Sent 3 of 3 · translated 2').waitFor({ timeout: 30_000 });
    await upload.getByRole('listitem').filter({ hasText: 'The train was late again.' }).getByText('Already in your sentences').waitFor();
    const sentences = page.getByRole('list', { name: 'Your sentences' });
    await sentences.getByText('[fr] The next one comes in ten minutes.').waitFor();
    await shoot(page, 'sentences');

    // Audio: generated, then played from the service.
    const clip = page.waitForResponse((response) => /\/api\/audio\/[\w-]+\/content$/.test(new URL(response.url()).pathname), { timeout: 45_000 });
    await page.getByRole('button', { name: 'Play “I missed my stop.”' }).click();
    expect([200, 206]).toContain((await clip).status());

    // Page translation: pasted paragraphs read bilingual.
    await page.getByRole('link', { name: 'Translate' }).click();
    await paste(page, 'Text to read bilingual', 'Trains are late.\nVery late.\n\nBuses are on time.');
    await page.getByRole('button', { name: 'Translate', exact: true }).click();
    const bilingual = page.getByRole('region', { name: 'Bilingual text' });
    await bilingual.getByText('[fr] Trains are late. Very late.').waitFor();
    await bilingual.getByText('[fr] Buses are on time.').waitFor();
    // The second size translates the same paragraphs: they come from the shared cache, free, and say so.
    await bilingual.getByText(size === 'desktop' ? /^Charged \d+ credits?\.$/ : 'Already translated: nothing charged.').waitFor();
    await shoot(page, 'translate');

    // A draft: English, notes, the charge.
    await openSection(page, 'Draft');
    expect(new URL(page.url()).pathname).toBe('/draft');
    await paste(page, 'What do you want to say?', 'Dis à mon équipe que je serai en retard.');
    await page.getByLabel('Tone').selectOption('formal');
    await page.getByRole('button', { name: 'Draft it' }).click();
    const draft = page.getByRole('region', { name: 'Draft' });
    await draft.getByRole('heading', { name: 'Your English' }).waitFor();
    await draft.getByText('Charged 200 credits.').waitFor();
    await shoot(page, 'draft');
    // The screen's address before it took the glossary's name, as a bookmark: the same screen.
    await page.goto('/write');
    await page.getByRole('heading', { name: 'Draft English', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/draft');

    // Out of credits: the first line is refused, and the rest are not sent.
    await stack.orm.em.fork().execute(`UPDATE wallets SET balance = 0 WHERE user_id = (SELECT id FROM users WHERE email = ?)`, [email]);
    await page.getByRole('link', { name: 'Sentences' }).click();
    await paste(page, 'Sentences, one per line', 'First of two.\nSecond of two.');
    await page.getByRole('button', { name: 'Translate and save' }).click();
    await upload.getByText('Sent 2 of 2 · translated 0').waitFor();
    expect(await upload.getByText('Not sent: out of credits').count()).toBe(2);

    expect(errors).toEqual([]);
    await context.close();
  });
});
