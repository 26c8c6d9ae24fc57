import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIST_LIMIT_MAX } from '../../../src/domain/limits.ts';
import { useStack, type Started } from '../../support/fixture.ts';
import type { Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { runLcs, tempHome } from './run-lcs.ts';
import { api, bodyOf } from '../../support/api.ts';
import { sql } from '../../support/helpers.ts';
import { legacyCollection } from '../../support/anki-collection.ts';
import { writeZip } from '../../support/zip-writer.ts';

let stack: Stack;
let user: TestUser;
// Three captures per two-second window: a batch meets 429s and must wait them out.
useStack((started: Started) => ({ stack, user } = started), { env: { RATE_LIMIT_MODEL_MAX: '3', RATE_LIMIT_WINDOW_SECONDS: '2' }, fakeCost: '0.00001' });

describe('lcs capture from stdin under the rate limit', () => {
  it('a few lines: waits out each 429 Retry-After and captures every line once', async () => {
    const lines = Array.from({ length: 8 }, (_, i) => `batch expression number ${String.fromCharCode(97 + i)}`);
    const run = await runLcs(['capture', '--json', '--concurrency', '3'], {
      home: tempHome(),
      env: { LCS_URL: stack.baseUrl, LCS_TOKEN: user.token },
      stdin: lines.join('\n'),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.json).toMatchObject({ new: 8, reused: 0, failed: 0 });
    expect(run.json.items.map((i: any) => i.text)).toEqual(lines); // in input order, whatever finished first
    const listed = bodyOf(await api(stack, { token: user.token }).GET('/api/library', { params: { query: { limit: LIST_LIMIT_MAX } } }), 200);
    expect(listed.items).toHaveLength(8);
  }, 120_000);

  it('300 lines go through an import: none fails for a 429 (the issue’s 67 of 297)', async () => {
    const learner = await newUser(stack);
    const lines = Array.from({ length: 300 }, (_, i) => `imported line number ${i} of the batch`);
    lines[299] = lines[0]!; // a repeat: reused, not a second card
    const run = await runLcs(['capture', '--json'], { home: tempHome(), env: { LCS_URL: stack.baseUrl, LCS_TOKEN: learner.token }, stdin: lines.join('\n') });
    expect(run.code, run.stderr).toBe(0);
    expect(run.json).toMatchObject({ new: 299, reused: 1, failed: 0 });
    expect(run.json.items.map((i: any) => i.text)).toEqual(lines);
  }, 120_000);

  it('lcs import FILE: a plain line per 10 % when not a TTY, and the outcome', async () => {
    const learner = await newUser(stack);
    const dir = mkdtempSync(join(tmpdir(), 'lcs-import-'));
    const file = join(dir, 'words.csv');
    writeFileSync(file, `word,meaning\n${Array.from({ length: 20 }, (_, i) => `"phrase number ${i}",m${i}`).join('\n')}\n`);
    const run = await runLcs(['import', file, '--column', 'word'], { home: tempHome(), env: { LCS_URL: stack.baseUrl, LCS_TOKEN: learner.token } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/Importing 20 expressions from .*words\.csv/);
    expect(run.stderr).toMatch(/: 100 % \(20\/20 done; \w+: 20 prepared\)/);
    // One plain line at each tenth the polls saw it pass (how many depends on the import's pace), no control codes.
    const tenths = [...run.stderr.matchAll(/: (\d+) % \(/g)].map((match) => Number(match[1]));
    expect(tenths.length).toBeGreaterThanOrEqual(2);
    expect(tenths.every((tenth, i) => tenth % 10 === 0 && (i === 0 || tenth > tenths[i - 1]!))).toBe(true);
    expect(run.stderr).not.toContain('\r');
    expect(run.stderr).not.toContain('\u001b');
    expect(run.stdout).toMatch(/All 20 new cards prepared/);
    const again = await runLcs(['import', file, '--column', 'word', '--json'], { home: tempHome(), env: { LCS_URL: stack.baseUrl, LCS_TOKEN: learner.token } });
    expect(again.code, again.stderr).toBe(0);
    expect(again.json.import.counts).toMatchObject({ saved: 20, prepared: 20 });
  }, 180_000);

  it('lcs import of an Anki package: the chosen deck, its sentence field and its history; a deck it does not hold is named with those it does', async () => {
    const learner = await newUser(stack);
    const env = { LCS_URL: stack.baseUrl, LCS_TOKEN: learner.token };
    const dir = mkdtempSync(join(tmpdir(), 'lcs-import-'));
    const file = join(dir, 'English.apkg');
    const day = 86_400_000;
    const t0 = Date.UTC(2026, 0, 5, 9);
    const collection = legacyCollection([
      {
        deck: 'Words',
        fields: ['take off', 'décoller', 'The plane will take off at noon.'],
        reviews: [
          [t0, 3],
          [t0 + 3 * day, 3],
        ],
      },
      { deck: 'Stories', fields: ['once upon a time', 'il était une fois', ''] },
    ]);
    writeFileSync(file, writeZip([{ name: 'collection.anki2', data: collection }]));
    const missing = await runLcs(['import', file, '--deck', 'French'], { home: tempHome(), env });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('This package has no deck "French". Its decks: "Empty", "Stories", "Words".');
    const run = await runLcs(['import', file, '--deck', 'Words', '--sentence-field', 'Sentence', '--history'], { home: tempHome(), env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/Importing 1 expressions from .*English\.apkg/);
    expect(run.stdout).toMatch(/The new card is prepared\. 1 card with 2 reviews; due dates kept\./);
    const library = bodyOf(await api(stack, { token: learner.token }).GET('/api/library', { params: { query: {} } }), 200);
    const card = bodyOf(
      await api(stack, { token: learner.token }).GET('/api/library/{cardId}', { params: { path: { cardId: library.items[0]!.cardId } } }),
      200,
    ).card;
    expect(card).toMatchObject({ text: 'take off', scheduling: { reps: 2, lastReview: new Date(t0 + 3 * day).toISOString() } });
    expect(card.contexts.map((c) => c.text)).toEqual(['The plane will take off at noon.']);
  }, 180_000);

  it('lcs import while another import runs: refused, naming that import and how to follow or cancel it', async () => {
    const learner = await newUser(stack);
    const client = api(stack, { token: learner.token });
    // Out of credits, the first import stays, waiting for them: one import runs at a time.
    await sql(stack, `UPDATE wallets SET balance = 0 WHERE user_id = ?`, [learner.userId]);
    const first = bodyOf(await client.POST('/api/library/imports', { body: { expressions: ['first import line'] } }), 202).import.importId;
    const dir = mkdtempSync(join(tmpdir(), 'lcs-import-'));
    const file = join(dir, 'more.txt');
    writeFileSync(file, 'second import line\n');
    const run = await runLcs(['import', file], { home: tempHome(), env: { LCS_URL: stack.baseUrl, LCS_TOKEN: learner.token } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `Another import of yours is running; wait for it to finish or cancel it. ` +
        `Follow it: lcs import --status ${first}. Cancel it: lcs import --cancel ${first}.`,
    );
    const cancelled = await runLcs(['import', '--cancel', first], { home: tempHome(), env: { LCS_URL: stack.baseUrl, LCS_TOKEN: learner.token } });
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toMatch(/^Cancelled: 0 of 1 prepared\./);
  }, 60_000);
});
