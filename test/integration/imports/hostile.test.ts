/**
 * Import files made to stall the API (issue 33), each generated here: every one is read in a
 * reader thread, linearly, with the row cap holding as it reads, and the API answers `/healthz`
 * while it is read. Each test names the finding it reproduces (a stall of seconds to minutes on the
 * API's own thread before).
 */
import { describe, expect, it } from 'vitest';
import { IMPORT_EXPRESSIONS_MAX } from '../../../src/domain/limits.ts';
import { bodyOf, expectProblem, rawHttp, type RawReply } from '../../support/api.ts';
import { useStack, type Started } from '../../support/fixture.ts';
import { kindleSchema, ordinaryLines, unclosedQuoteThenLines, vocabDb } from '../../support/hostile-import-files.ts';
import type { Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';

let stack: Stack;
let user: TestUser;
useStack((started: Started) => ({ stack, user } = started));

/**
 * Sends the file to `path` and asks `/healthz` of the same process, one after another, until the
 * import answers: how many health answers came while the file was being read.
 */
async function readWhileAsking(path: 'preview' | 'file', body: string | Buffer, query: string, type = 'text/plain', learner = user) {
  let settled = false;
  const sent = rawHttp(stack, 'POST', `/api/library/imports/${path}?${query}`, {
    token: learner.token,
    rawBody: body,
    headers: { 'content-type': type },
  }).finally(() => {
    settled = true;
  });
  let healthDuringRead = 0;
  while (!settled) {
    const health = await fetch(`${stack.baseUrl}/healthz`);
    await health.arrayBuffer();
    if (health.ok && !settled) healthDuringRead++;
  }
  return { reply: await sent, healthDuringRead };
}

const reasonOf = (reply: RawReply) => (reply.body as { reason?: string }).reason;

describe('hostile import files', () => {
  it('reads a vocab.db without Kindle’s index on LOOKUPS.word_key in one pass (was 9.3 s of stalled API)', async () => {
    const learner = await newUser(stack);
    const bytes = vocabDb(2_000, 20_000);
    const { reply, healthDuringRead } = await readWhileAsking('preview', bytes, 'fileName=vocab.db', 'application/vnd.sqlite3', learner);
    const preview = bodyOf(reply, 200);
    expect(preview).toMatchObject({ format: 'kindle', expressions: 2_000 });
    // Each word's earliest lookup (the last inserted) is its sentence.
    expect(preview.first[0]).toMatchObject({ line: 1, text: 'word0', context: 'We met word0 in lookup 18000.' });
    expect(healthDuringRead).toBeGreaterThan(0);
  }, 120_000);

  it('refuses a vocab.db whose stem is a generated column, views and triggers, without evaluating them (was 15.8 s and 1.75 GB)', async () => {
    const generated = vocabDb(3, 3, kindleSchema(`stem TEXT GENERATED ALWAYS AS (printf('%.*c', 40000000, 'x')) VIRTUAL`));
    const { reply, healthDuringRead } = await readWhileAsking('preview', generated, 'fileName=vocab.db', 'application/vnd.sqlite3');
    expectProblem(reply, 400, 'invalid_request');
    expect(reasonOf(reply)).toBe('not_kindle');
    expect(reply.body.detail).toMatch(/generated or hidden columns/);
    expect(healthDuringRead).toBeGreaterThan(0);

    for (const extra of [
      `CREATE VIEW W2 AS SELECT printf('%.*c', 40000000, 'x') AS stem FROM WORDS;`,
      `CREATE TRIGGER t AFTER INSERT ON WORDS BEGIN SELECT 1; END;`,
    ]) {
      const res = await rawHttp(stack, 'POST', '/api/library/imports/preview?fileName=vocab.db', {
        token: user.token,
        rawBody: vocabDb(3, 3, kindleSchema() + extra),
        headers: { 'content-type': 'application/vnd.sqlite3' },
      });
      expectProblem(res, 400, 'invalid_request');
      expect(res.body).toMatchObject({ reason: 'not_kindle', detail: expect.stringMatching(/which Kindle's never does/) });
    }
  }, 120_000);

  it('reads a CSV whose every line is a","  once, reporting the unclosed quotes, not rescanning to the end from each line (was 41.8 s)', async () => {
    const csv = 'a","\n'.repeat(16_000);
    const { reply, healthDuringRead } = await readWhileAsking('preview', csv, 'format=csv');
    // No record can be read: the first unclosed quote is reported, read past once, then the rest is left.
    expectProblem(reply, 400, 'invalid_request');
    expect(reply.body).toMatchObject({
      reason: 'nothing_to_import',
      problems: [
        { line: 1, code: 'quote_not_closed', message: 'line 1: a quoted field opens here and is not closed' },
        { line: 2, code: 'quote_not_closed', message: 'line 2: a quoted field opens here and is not closed; the rest of the file was not read' },
      ],
    });
    expect(healthDuringRead).toBeGreaterThan(0);
  }, 120_000);

  it('makes Anki HTML text without backtracking: a field of 60,000 `<` is too long, the note after it read (was 5.2 s)', async () => {
    const file = `#separator:tab\n#html:true\n${'<'.repeat(60_000)}\tback\n<b>break</b> a leg\tbonne chance\n`;
    const { reply, healthDuringRead } = await readWhileAsking('preview', file, 'format=anki');
    const preview = bodyOf(reply, 200);
    expect(preview).toMatchObject({ format: 'anki', expressions: 1, first: [{ line: 4, text: 'break a leg', inLibrary: false }] });
    expect(preview.problems).toEqual([
      { line: 3, code: 'too_long', message: "line 3: 60000 characters, longer than a card's 280; it can be saved as a sentence" },
    ]);
    expect(healthDuringRead).toBeGreaterThan(0);
  }, 120_000);

  it('stops reading 25 MB of ordinary lines at the 10,001st expression (was 46–86 s, then 1.18 GB)', async () => {
    const { reply, healthDuringRead } = await readWhileAsking('preview', ordinaryLines(), 'format=lines');
    expectProblem(reply, 400, 'invalid_request');
    expect(reply.body).toMatchObject({ reason: 'too_many_expressions', limit: IMPORT_EXPRESSIONS_MAX, line: IMPORT_EXPRESSIONS_MAX + 1 });
    expect(healthDuringRead).toBeGreaterThan(0);
  }, 300_000);

  it('reads 25 MB with one unclosed quote then millions of lines once: the quote reported, the lines after it read (was 153 s and 4 GB)', async () => {
    const file = unclosedQuoteThenLines();
    expect(file.length).toBeGreaterThan(24_000_000);
    const { reply, healthDuringRead } = await readWhileAsking('preview', file, 'format=csv&column=word');
    const preview = bodyOf(reply, 200);
    expect(preview).toMatchObject({ expressions: 1, skipped: { duplicatesInFile: 1_450_000 - 1 }, first: [{ line: 3, text: 'same thing' }] });
    expect(preview.problems).toEqual([{ line: 2, code: 'quote_not_closed', message: 'line 2: a quoted field opens here and is not closed' }]);
    expect(healthDuringRead).toBeGreaterThan(0);
  }, 300_000);
  it('reads one file per learner whichever API process reads it: another process’s lease is 429 import_reads, a lapsed one is taken over', async () => {
    const learner = await newUser(stack);
    const em = stack.orm.em.fork();
    const send = (body: string, query = 'format=lines') =>
      rawHttp(stack, 'POST', `/api/library/imports/preview?${query}`, { token: learner.token, rawBody: body, headers: { 'content-type': 'text/plain' } });
    // Another API process is reading a file of this learner's: it holds the learner's lease (0029).
    await em.execute(
      `INSERT INTO import_read_leases (user_id, holder, lease_expires_at) VALUES (?, 'another process', clock_timestamp() + interval '1 minute')`,
      [learner.userId],
    );
    const refused = await send('break a leg\n');
    expectProblem(refused, 429, 'rate_limited');
    expect(refused.body).toMatchObject({ limit: 'import_reads' });
    // That process died: its lease is no longer renewed and lapses; the next read takes it over.
    await em.execute(`UPDATE import_read_leases SET lease_expires_at = clock_timestamp() - interval '1 second' WHERE user_id = ?`, [learner.userId]);
    expect(bodyOf(await send('break a leg\n'), 200)).toMatchObject({ expressions: 1 });
    // A read lets go of its lease however it ends: a refused file, a thread ended at its deadline or memory limit.
    expectProblem(await send('a","\n'.repeat(3), 'format=csv'), 400, 'invalid_request');
    expect(await em.execute(`SELECT count(*)::int AS n FROM import_read_leases WHERE user_id = ?`, [learner.userId])).toEqual([{ n: 0 }]);
  });
});
