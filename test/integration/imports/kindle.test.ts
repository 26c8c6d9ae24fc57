/**
 * Kindle's Vocabulary Builder (`vocab.db`) through the REST file endpoints: real SQLite files in
 * Kindle's own schema, built here with node:sqlite.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { IMPORT_FILE_MAX_BYTES } from '../../../src/domain/limits.ts';
import { api, bodyOf, expectProblem, rawHttp, type RawReply } from '../../support/api.ts';
import { useStack, type Started } from '../../support/fixture.ts';
import { importCompleted } from '../../support/imports.ts';
import type { Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';

let stack: Stack;
let user: TestUser;
useStack((started: Started) => ({ stack, user } = started), { fakeCost: '0.00001' });

/** Kindle's schema, as the device writes it (system/vocabulary/vocab.db). */
const KINDLE_SCHEMA = `
  CREATE TABLE BOOK_INFO (id TEXT PRIMARY KEY NOT NULL UNIQUE, asin TEXT, guid TEXT, lang TEXT, title TEXT, authors TEXT);
  CREATE TABLE DICT_INFO (id TEXT PRIMARY KEY NOT NULL UNIQUE, asin TEXT, langin TEXT, langout TEXT);
  CREATE TABLE LOOKUPS (id TEXT PRIMARY KEY NOT NULL UNIQUE, word_key TEXT, book_key TEXT, dict_key TEXT, pos TEXT, usage TEXT, timestamp INTEGER DEFAULT 0);
  CREATE TABLE METADATA (id TEXT PRIMARY KEY NOT NULL UNIQUE, dsname TEXT, sscnt INTEGER, profileid TEXT);
  CREATE TABLE VERSION (id TEXT PRIMARY KEY NOT NULL UNIQUE, dsname TEXT, value INTEGER);
  CREATE TABLE WORDS (id TEXT PRIMARY KEY NOT NULL UNIQUE, word TEXT, stem TEXT, lang TEXT, category INTEGER DEFAULT 0, timestamp INTEGER DEFAULT 0,
    profileid TEXT);
  CREATE INDEX bookinfo_guid_index ON BOOK_INFO (guid);
  CREATE INDEX lookups_book_index ON LOOKUPS (book_key);
  CREATE INDEX lookups_word_index ON LOOKUPS (word_key);
  CREATE INDEX words_stem_index ON WORDS (stem);
  INSERT INTO VERSION VALUES ('VERSION', 'WordListDB', 1);
  INSERT INTO METADATA VALUES ('1', 'WORDS', 0, ''), ('2', 'LOOKUPS', 0, ''), ('3', 'BOOK_INFO', 0, ''), ('4', 'DICT_INFO', 0, '');
  INSERT INTO DICT_INFO VALUES ('Oxford_English', 'B003ODIZL6', 'en', 'en'), ('Duden', 'B00DUDEN01', 'de', 'de');
  INSERT INTO BOOK_INFO VALUES ('CR!BOOK1:A1B2', 'B000FC1PJI', 'CR!BOOK1', 'en', 'Moby-Dick', 'Herman Melville');
`;

interface KindleWord {
  word: string;
  stem: string;
  lang: string;
  /** When the word was first looked up (Kindle's milliseconds); its lookups follow, each with its own time. */
  timestamp: number;
  lookups: { usage: string; timestamp: number }[];
}

const T0 = 1_700_000_000_000;

/** A row of a preview's `first` (the file endpoints' replies are raw: the document declares no request body for them). */
interface PreviewRow {
  line: number;
  text: string;
  context?: string;
  inLibrary: boolean;
}

/**
 * A vocab.db holding `words`, its bytes as the device gives them; `before` runs before the schema
 * (e.g. PRAGMA journal_mode = WAL), `schema` replaces Kindle's.
 */
async function vocabDb(words: KindleWord[], options: { before?: string; schema?: string } = {}): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'lcs-kindle-test-'));
  try {
    const path = join(dir, 'vocab.db');
    const db = new DatabaseSync(path);
    if (options.before) db.exec(options.before);
    db.exec(options.schema ?? KINDLE_SCHEMA);
    db.exec('BEGIN');
    let n = 0;
    // Prepared only when there are words: a schema of another database has no such tables.
    const insertWord = words.length
      ? db.prepare(`INSERT INTO WORDS (id, word, stem, lang, category, timestamp, profileid) VALUES (?, ?, ?, ?, 0, ?, '')`)
      : null;
    const insertLookup = words.length
      ? db.prepare(`INSERT INTO LOOKUPS (id, word_key, book_key, dict_key, pos, usage, timestamp) VALUES (?, ?, 'CR!BOOK1:A1B2', ?, ?, ?, ?)`)
      : null;
    for (const w of words) {
      const id = `${w.lang}:${w.word}`;
      insertWord!.run(id, w.word, w.stem, w.lang, w.timestamp);
      for (const l of w.lookups) {
        n++;
        insertLookup!.run(`CR!BOOK1:A1B2:${n}`, id, w.lang.startsWith('en') ? 'Oxford_English' : 'Duden', `AYkJAAAAAAAA:${n * 37}`, l.usage, l.timestamp);
      }
    }
    db.exec('COMMIT');
    db.close();
    return await readFile(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The file sent as it is, as the web app sends a vocab.db (the typed client cannot: the document declares no request body for it). */
const sendFile = (path: 'file' | 'preview', bytes: Uint8Array | string, query = 'fileName=vocab.db', token = user.token): Promise<RawReply> =>
  rawHttp(stack, 'POST', `/api/library/imports/${path}?${query}`, {
    token,
    rawBody: typeof bytes === 'string' ? bytes : Buffer.from(bytes),
    headers: { 'content-type': 'application/vnd.sqlite3' },
  });

/** Several lookups a word, the earliest not first inserted: the card's context must be the earliest sentence. */
const WORDS: KindleWord[] = [
  {
    word: 'ubiquitous',
    stem: 'ubiquitous',
    lang: 'en',
    timestamp: T0 + 1_000,
    lookups: [
      { usage: 'Later, the ubiquitous gulls followed the ship.', timestamp: T0 + 9_000 },
      { usage: 'Whales were ubiquitous in those waters.', timestamp: T0 + 1_000 },
      { usage: 'The ubiquitous fog came back at noon.', timestamp: T0 + 5_000 },
    ],
  },
  {
    word: 'Schmetterling',
    stem: 'Schmetterling',
    lang: 'de',
    timestamp: T0 + 2_000,
    lookups: [{ usage: 'Ein Schmetterling flog vorbei.', timestamp: T0 + 2_000 }],
  },
  {
    word: 'harpooned',
    stem: 'harpoon',
    lang: 'en',
    timestamp: T0 + 3_000,
    lookups: [
      { usage: 'They harpooned the whale at dawn.', timestamp: T0 + 3_000 },
      { usage: 'He harpooned nothing all week.', timestamp: T0 + 8_000 },
    ],
  },
  {
    word: 'papillon',
    stem: 'papillon',
    lang: 'fr',
    timestamp: T0 + 4_000,
    lookups: [{ usage: 'Un papillon blanc.', timestamp: T0 + 4_000 }],
  },
  {
    word: 'leviathan',
    stem: 'leviathan',
    lang: 'en_US', // a regional tag is English too
    timestamp: T0 + 6_000,
    lookups: [
      { usage: 'A leviathan rose beside the boat, and then a second time.', timestamp: T0 + 12_000 },
      { usage: 'The leviathan of the deep slept.', timestamp: T0 + 6_000 },
    ],
  },
];
/** What the file holds for a learner: the English words by their stems, in the order they were first looked up, each with its earliest sentence. */
const EXPECTED = [
  { line: 1, text: 'ubiquitous', context: 'Whales were ubiquitous in those waters.' },
  { line: 3, text: 'harpoon', context: 'They harpooned the whale at dawn.' },
  { line: 5, text: 'leviathan', context: 'The leviathan of the deep slept.' },
];

describe('Kindle vocab.db imports', () => {
  it(
    'previews and imports English words as cards, each with its earliest lookup’s sentence; ' + 'other languages left out and counted; every card prepared',
    async () => {
      const learner = await newUser(stack);
      const client = api(stack, { token: learner.token });
      const bytes = await vocabDb(WORDS);

      // Detected by its SQLite header; stored nothing.
      const preview = bodyOf(await sendFile('preview', bytes, 'fileName=vocab.db', learner.token), 200);
      expect(preview).toEqual({
        format: 'kindle',
        expressions: 3,
        inLibrary: 0,
        skipped: { duplicatesInFile: 0, tooLong: 0, invalid: 0, otherLanguage: 2 },
        problems: [{ line: 0, code: 'other_language', message: '2 words in other languages than English were left out' }],
        problemsTotal: 1,
        first: EXPECTED.map((row) => ({ ...row, inLibrary: false })),
        longLines: [],
      });

      const created = bodyOf(await sendFile('file', bytes, 'fileName=vocab.db', learner.token), 202);
      expect(created.parsed).toEqual({ expressions: 3, skipped: { duplicatesInFile: 0, tooLong: 0, invalid: 0, otherLanguage: 2 }, problemsTotal: 1 });
      expect(created.import).toMatchObject({ format: 'kindle', fileName: 'vocab.db' });
      const importId = created.import.importId;

      const done = await importCompleted(client, importId);
      expect(done.counts).toEqual({ total: 3, saved: 3, reused: 0, prepared: 3, preparing: 0, waiting: 0, waitingForCredits: 0, failed: {}, removed: 0 });
      expect(done.outcome).toEqual({ code: 'completed', message: 'All 3 new cards prepared.' });
      expect(done.skipped.otherLanguage).toBe(2);

      const rows = bodyOf(await client.GET('/api/library/imports/{importId}/rows', { params: { path: { importId } } }), 200);
      expect(rows.items.map(({ line, text, outcome, status }) => ({ line, text, outcome, status }))).toEqual(
        EXPECTED.map(({ line, text }) => ({ line, text, outcome: 'new', status: 'ready' })),
      );
      for (const [i, row] of rows.items.entries()) {
        const card = bodyOf(await client.GET('/api/library/{cardId}', { params: { path: { cardId: row.cardId! } } }), 200).card;
        expect(card).toMatchObject({ text: EXPECTED[i]!.text, enrichmentStatus: 'ready' });
        expect(card.contexts.map((c) => c.text)).toEqual([EXPECTED[i]!.context]);
      }
      // No card for the German or the French word.
      const library = bodyOf(await client.GET('/api/library', { params: { query: { limit: 50 } } }), 200);
      expect(library.items.map((c) => c.text).sort()).toEqual(['harpoon', 'leviathan', 'ubiquitous']);
    },
    180_000,
  );

  it('reads a vocab.db in WAL mode', async () => {
    const bytes = await vocabDb(WORDS, { before: 'PRAGMA journal_mode = WAL;' });
    expect([bytes[18], bytes[19]]).toEqual([2, 2]); // the header's WAL read/write versions
    const preview = bodyOf(await sendFile('preview', bytes), 200);
    expect(preview.first.map(({ line, text, context }: PreviewRow) => ({ line, text, context }))).toEqual(EXPECTED);
  });

  it('refuses what is not a vocab.db with a problem naming what it looks like', async () => {
    // A PNG named vocab.db, sent as Kindle's, and sent with the format left to detection.
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Uint8Array(200)]);
    for (const query of ['format=kindle&fileName=vocab.db', 'fileName=vocab.db']) {
      const res = await sendFile('file', png, query);
      expectProblem(res, 400, 'invalid_request');
      expect(res.body).toMatchObject({
        reason: 'not_sqlite',
        detail: 'This file is a PNG image; a Kindle vocab.db is one (on the Kindle: system/vocabulary/vocab.db).',
      });
    }
    // A text file named vocab.db is not read as a list of lines.
    const text = await sendFile('preview', 'ubiquitous\nharpoon\n'.repeat(10));
    expectProblem(text, 400, 'invalid_request');
    expect(text.body).toMatchObject({
      reason: 'not_sqlite',
      detail: 'This file is not a SQLite database; a Kindle vocab.db is one (on the Kindle: system/vocabulary/vocab.db).',
    });
    // An empty one.
    const empty = await sendFile('file', '', 'format=kindle');
    expectProblem(empty, 400, 'invalid_request');
    expect(empty.body).toMatchObject({ reason: 'empty_file', detail: 'The file is empty.' });
  });

  it('refuses a SQLite database that is not Kindle’s as not_kindle, one without words as empty, a damaged one as damaged', async () => {
    const other = await vocabDb([], { schema: 'CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); CREATE TABLE WORDS (id TEXT, word TEXT);' });
    const notKindle = await sendFile('file', other);
    expectProblem(notKindle, 400, 'invalid_request');
    expect(notKindle.body).toMatchObject({
      reason: 'not_kindle',
      detail: 'This SQLite database is not a Kindle vocab.db: it has no WORDS and LOOKUPS tables.',
    });

    const noWords = await sendFile('file', await vocabDb([]));
    expectProblem(noWords, 400, 'invalid_request');
    expect(noWords.body).toMatchObject({ reason: 'empty_file', detail: 'This vocab.db holds no words.' });

    // The header of a SQLite file, its schema page overwritten.
    const damaged = await vocabDb(WORDS);
    damaged.fill(0xa5, 100, 4096);
    const res = await sendFile('preview', damaged);
    expectProblem(res, 400, 'invalid_request');
    expect(res.body).toMatchObject({ reason: 'damaged_sqlite', detail: expect.stringMatching(/^This SQLite file is damaged and cannot be read \(.+\)\.$/) });
  });

  it('parses a ~20 MB vocab.db of 10,000 words and 50,000 lookups', async () => {
    const sentence = (w: number, k: number) =>
      `In chapter ${k} the sailors saw word${w} again, and the narrator wrote a long paragraph about its meaning, ` +
      `its sound, the sea, the weather and the crew's endless arguments about it (${w}-${k}).`;
    const words: KindleWord[] = Array.from({ length: 10_000 }, (_, w) => ({
      word: `word${w}`,
      stem: `word${w}`,
      lang: w % 10 === 9 ? 'fr' : 'en', // 1,000 in French
      timestamp: T0 + w * 1_000,
      // Five lookups, inserted latest first: the earliest is the last inserted.
      lookups: Array.from({ length: 5 }, (_, k) => ({ usage: sentence(w, 5 - k), timestamp: T0 + w * 1_000 + (5 - k) })),
    }));
    const bytes = await vocabDb(words);
    expect(bytes.length).toBeGreaterThan(17_000_000);
    expect(bytes.length).toBeLessThan(IMPORT_FILE_MAX_BYTES);

    const preview = bodyOf(await sendFile('preview', bytes), 200);
    expect(preview).toMatchObject({
      format: 'kindle',
      expressions: 9_000,
      skipped: { duplicatesInFile: 0, tooLong: 0, invalid: 0, otherLanguage: 1_000 },
      problems: [{ line: 0, code: 'other_language', message: '1000 words in other languages than English were left out' }],
    });
    expect(preview.first[0]).toEqual({ line: 1, text: 'word0', context: sentence(0, 1), inLibrary: false });
    expect(preview.first.slice(0, 10).map((row: PreviewRow) => row.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 11]);
  }, 300_000); // parsing takes under a second; sending 20 MB to the in-process server takes up to a minute on a loaded machine

  it('refuses a file over the limit sent without a Content-Length (chunked) with 413, once the limit is passed', async () => {
    // imports.test.ts covers a declared Content-Length (refused from the headers, the limit stated).
    const chunk = new Uint8Array(1_000_000).fill(0x61);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= IMPORT_FILE_MAX_BYTES + 5_000_000) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const res = await fetch(`${stack.baseUrl}/api/library/imports/file?format=kindle`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/vnd.sqlite3' },
      body,
      duplex: 'half',
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    // The generic answer: unlike a declared length, it does not state the import's limit (left as it is; see the report).
    expect(await res.json()).toMatchObject({ status: 413, code: 'payload_too_large', detail: 'The body is larger than this service accepts.' });
  });
});
