/**
 * KOReader's vocabulary builder (`vocabulary_builder.sqlite3`) through the REST file endpoints:
 * a real SQLite file in KOReader's own schema (plugins/vocabbuilder.koplugin), built here.
 */
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it, vi } from 'vitest';
import { api, bodyOf, expectProblem, rawHttp, type RawReply } from '../../support/api.ts';
import { useStack, type Started } from '../../support/fixture.ts';
import { importCompleted } from '../../support/imports.ts';
import type { Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';

let stack: Stack;
let user: TestUser;
useStack((started: Started) => ({ stack, user } = started), { fakeCost: '0.00001' });

/** KOReader's schema, as its vocabulary builder creates it. */
const KOREADER_SCHEMA = `
  CREATE TABLE IF NOT EXISTS "vocabulary" ("word" TEXT NOT NULL UNIQUE, "title_id" INTEGER, "create_time" INTEGER NOT NULL, "review_time" INTEGER,
    "due_time" INTEGER NOT NULL, "review_count" INTEGER NOT NULL DEFAULT 0, "prev_context" TEXT, "next_context" TEXT,
    "streak_count" INTEGER NOT NULL DEFAULT 0, "highlight" TEXT, PRIMARY KEY("word"));
  CREATE TABLE IF NOT EXISTS "title" ("id" INTEGER NOT NULL UNIQUE, "name" TEXT UNIQUE, "filter" INTEGER NOT NULL DEFAULT 1, PRIMARY KEY("id"));
  CREATE INDEX IF NOT EXISTS due_time_index ON vocabulary(due_time);
  CREATE INDEX IF NOT EXISTS title_name_index ON title(name);
  INSERT INTO title (id, name) VALUES (1, 'Moby-Dick'), (2, 'Persuasion');
`;

const WORDS = [
  // Looked up second: the words come in the order they were looked up.
  { word: 'squall', title: 1, time: 200, prev: 'The sea was calm at dawn. By noon a sudden ', next: ' struck the ship. Nobody slept that night.' },
  { word: 'forlorn', title: 2, time: 100, prev: 'She looked ', next: ' and pale, and said nothing.', highlight: 'forlorn' },
  { word: 'harpoon', title: null, time: 300, prev: '', next: '' },
];

function vocabularyDb(schema = KOREADER_SCHEMA, words = WORDS): Buffer {
  const db = new DatabaseSync(':memory:');
  db.exec(schema);
  for (const w of words) {
    db.prepare(`INSERT INTO vocabulary (word, title_id, create_time, due_time, prev_context, next_context, highlight) VALUES (?, ?, ?, ?, ?, ?, ?)`).run(
      w.word,
      w.title,
      w.time,
      w.time,
      w.prev,
      w.next,
      w.highlight ?? null,
    );
  }
  const bytes = Buffer.from(db.serialize());
  db.close();
  return bytes;
}

const send = (path: 'file' | 'preview', bytes: Buffer, query: string, token = user.token): Promise<RawReply> =>
  rawHttp(stack, 'POST', `/api/library/imports/${path}?${query}`, { token, rawBody: bytes, headers: { 'content-type': 'application/vnd.sqlite3' } });

describe("KOReader's vocabulary builder", () => {
  it('previews each word with the sentence around it, in lookup order, its book title only when asked; imports them as cards with that sentence', async () => {
    const learner = await newUser(stack);
    const client = api(stack, { token: learner.token });
    const bytes = vocabularyDb();

    // Detected by its schema, without a name.
    const preview = bodyOf(await send('preview', bytes, '', learner.token), 200);
    expect(preview.format).toBe('koreader');
    expect(preview.first).toEqual([
      { line: 1, text: 'forlorn', context: 'She looked forlorn and pale, and said nothing.', inLibrary: false },
      { line: 2, text: 'squall', context: 'By noon a sudden squall struck the ship.', inLibrary: false },
      { line: 3, text: 'harpoon', inLibrary: false },
    ]);
    const withTitles = bodyOf(await send('preview', bytes, 'fileName=vocabulary_builder.sqlite3&bookTitles=true', learner.token), 200);
    expect(withTitles.first.map((r: { source?: string }) => r.source)).toEqual(['Persuasion', 'Moby-Dick', undefined]);

    // Without the opt-in, no title is stored anywhere; with it, on the import's rows.
    const created = bodyOf(await send('file', bytes, 'fileName=vocabulary_builder.sqlite3&bookTitles=true', learner.token), 202);
    const importId = created.import.importId;
    await importCompleted(client, importId);
    const rows = bodyOf(await client.GET('/api/library/imports/{importId}/rows', { params: { path: { importId } } }), 200);
    expect(rows.items.map((r) => [r.text, r.source, r.status])).toEqual([
      ['forlorn', 'Persuasion', 'ready'],
      ['squall', 'Moby-Dick', 'ready'],
      ['harpoon', null, 'ready'],
    ]);
    const squall = bodyOf(await client.GET('/api/library/{cardId}', { params: { path: { cardId: rows.items[1]!.cardId! } } }), 200).card;
    expect(squall.contexts.map((c) => c.text)).toEqual(['By noon a sudden squall struck the ship.']);

    const other = await newUser(stack);
    const plain = bodyOf(await send('file', bytes, 'format=koreader', other.token), 202);
    const plainRows = await vi.waitFor(async () => {
      const page = bodyOf(
        await api(stack, { token: other.token }).GET('/api/library/imports/{importId}/rows', { params: { path: { importId: plain.import.importId } } }),
        200,
      );
      expect(page.items).toHaveLength(3);
      return page;
    });
    expect(plainRows.items.map((r) => r.source)).toEqual([null, null, null]);
  });

  it('refuses what is not a vocabulary builder, with a clear problem', async () => {
    const kindleLike = vocabularyDb(`CREATE TABLE WORDS (id TEXT); CREATE TABLE LOOKUPS (id TEXT)`, []);
    const res = await send('preview', kindleLike, 'format=koreader');
    expectProblem(res, 400, 'invalid_request');
    expect(res.body).toMatchObject({ reason: 'not_koreader' });
    const text = await send('preview', Buffer.from('word one\nword two'), 'format=koreader');
    expect(text.body).toMatchObject({ reason: 'not_sqlite' });
    const trigger = vocabularyDb(`${KOREADER_SCHEMA} CREATE TRIGGER t AFTER INSERT ON vocabulary BEGIN DELETE FROM title; END;`);
    expect((await send('preview', trigger, 'format=koreader')).body).toMatchObject({ reason: 'damaged_sqlite', detail: expect.stringContaining('trigger') });
    const empty = vocabularyDb(KOREADER_SCHEMA, []);
    expect((await send('preview', empty, 'format=koreader')).body).toMatchObject({ reason: 'empty_file' });
  });
});
