import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { legacyCollection } from '../../support/anki-collection.ts';
import type { Stack } from '../../support/stack.ts';
import { writeZip } from '../../support/zip-writer.ts';
import { DESKTOP, openPage, shoot, signUp, useBrowserStack } from './browser.ts';

let stack: Stack;
let browser: Browser;
useBrowserStack((started) => ({ stack, browser } = started));

describe('importing through the web app', () => {
  it(
    'drops a file, previews it (counts, first lines, what is in the library), imports it with a live bar, and says what happened',
    { timeout: 120_000 },
    async () => {
      const { context, page, errors } = await openPage(browser, stack.baseUrl, DESKTOP);
      await signUp(page);
      await page.getByLabel('Capture an English expression').fill('break a leg');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('link', { name: 'Import a file…' }).click();
      await page.getByRole('heading', { name: 'Import expressions' }).waitFor();

      const csv = [
        'word,meaning',
        'break a leg,bonne chance',
        'hit the sack,aller dormir',
        'spill the beans,vendre la mèche',
        `${'very '.repeat(70)}long,x`,
        'hit the sack,again',
        '',
      ].join('\n');
      await page.getByLabel('Format').selectOption('csv');
      await page.getByRole('textbox', { name: 'Column' }).fill('word');
      await page.getByRole('textbox', { name: 'Column' }).blur();
      await page.getByLabel('File to import').setInputFiles({ name: 'words.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      const counts = page.getByTestId('preview-counts');
      await counts.waitFor();
      await expect.poll(() => counts.textContent()).toContain('3 expressions (csv); 1 already in your library');
      expect(await counts.textContent()).toContain('1 repeated in the file, 1 too long for a card');
      expect(await page.getByRole('row', { name: /break a leg/ }).textContent()).toContain('in your library');
      await page.getByText('words.csv (473 bytes)').waitFor();
      await page.getByText('1 line needs a look').waitFor();
      await shoot(page, 'import-preview');

      stack.fake.setLatency(600); // slow enough to see the bar move
      await page.getByRole('button', { name: 'Import 3 expressions' }).click();
      await page.getByRole('progressbar', { name: 'Import progress' }).waitFor();
      await shoot(page, 'import-progress');
      const outcome = page.getByTestId('import-outcome');
      await outcome.waitFor({ timeout: 60_000 });
      expect(await outcome.textContent()).toMatch(/All 2 new cards prepared\. 1 was already in your library\./);
      expect(await page.getByTestId('import-counts').textContent()).toMatch(/^100 %/);
      await page.getByText('1 line of the file was not imported').waitFor();
      await shoot(page, 'import-done');
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it(
    'an Anki package: the preview names its decks and fields; choosing a deck and the sentence field reads those notes with their sentences',
    { timeout: 120_000 },
    async () => {
      const { context, page, errors } = await openPage(browser, stack.baseUrl, DESKTOP);
      await signUp(page);
      await page.goto(`${stack.baseUrl}/library/import`);
      await page.getByRole('heading', { name: 'Import expressions' }).waitFor();
      const apkg = writeZip([
        {
          name: 'collection.anki2',
          data: legacyCollection([
            { deck: 'Words', fields: ['take off', 'décoller', 'The plane will take off at noon.'], reviews: [[Date.UTC(2026, 0, 5), 3]] },
            { deck: 'Words', fields: ['set up', 'installer', 'We set up the tent.'] },
            { deck: 'Stories', fields: ['once upon a time', 'il était une fois', ''], reviews: [[Date.UTC(2026, 0, 6), 3]] },
          ]),
        },
      ]);
      await page.getByLabel('File to import').setInputFiles({ name: 'English.apkg', mimeType: 'application/zip', buffer: apkg });
      const counts = page.getByTestId('preview-counts');
      await expect.poll(() => counts.textContent()).toContain('3 expressions (apkg)');
      await page.getByRole('group', { name: 'Decks' }).waitFor();
      await page.getByLabel('Words (2 notes)').check();
      await expect.poll(() => counts.textContent()).toContain('2 expressions (apkg)');
      await page.getByLabel('Sentence field').selectOption('Sentence');
      await page.getByText('The plane will take off at noon.').waitFor();
      expect(await page.getByLabel('Words (2 notes)').isChecked()).toBe(true);
      // A deck without notes is refused with why, and the decks stay to choose again.
      await page.getByLabel('Words (2 notes)').uncheck();
      await page.getByLabel('Empty (0 notes)').check();
      await page.getByText('The chosen deck holds no notes.').waitFor();
      await page.getByLabel('Empty (0 notes)').uncheck();
      await page.getByLabel('Words (2 notes)').check();
      // The chosen deck's one review (the package holds two).
      await page.getByLabel(/Bring their 1 Anki review:/).check();
      await expect.poll(() => counts.textContent()).toContain('2 expressions (apkg)');
      await shoot(page, 'import-anki-preview');
      await page.getByRole('button', { name: 'Import 2 expressions' }).click();
      const outcome = page.getByTestId('import-outcome');
      await outcome.waitFor({ timeout: 60_000 });
      expect(await outcome.textContent()).toMatch(/All 2 new cards prepared.*1 card with 1 review; due dates kept\./);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it('refuses a file that is too large before sending it, with the limit, and a binary file with what it looks like', { timeout: 60_000 }, async () => {
    const { context, page } = await openPage(browser, stack.baseUrl, DESKTOP);
    await signUp(page);
    await page.goto('/library/import');
    // A file on disk (sparse): Chromium reads it by path, where a buffer would cross the DevTools pipe as 35 MB of base64.
    const dir = await mkdtemp(join(tmpdir(), 'lcs-import-'));
    const big = join(dir, 'big.txt');
    await writeFile(big, '');
    await truncate(big, 26_000_000);
    await page.getByLabel('File to import').setInputFiles(big);
    await page.getByText('This file is 26.0 MB; an import takes files up to 25.0 MB. Split it.').waitFor();
    await page.getByLabel('File to import').setInputFiles({ name: 'scan.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.7 binary') });
    await page.getByText(/This file is a PDF document, not a text file/).waitFor();
    await shoot(page, 'import-refused');
    await context.close();
    await rm(dir, { recursive: true });
  });
});
