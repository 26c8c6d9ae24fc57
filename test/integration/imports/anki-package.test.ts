/**
 * Anki packages (.apkg, .colpkg) through the REST file endpoints: packages written by the real
 * Anki (PyPI `anki`, test/anki/build-packages.py: two decks and an empty one, a note type with
 * three fields, real reviews), in each of the formats Anki writes, and hostile archives made by
 * hand (test/support/zip-writer.ts).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { promisify } from 'node:util';
import { zstdCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANKI_COLLECTION_MAX_BYTES } from '../../../src/domain/limits.ts';
import { replayHistory } from '../../../src/features/library/imports/anki-history.ts';
import { api, bodyOf, expectProblem, rawHttp, type RawReply } from '../../support/api.ts';
import { useStack, type Started } from '../../support/fixture.ts';
import { importCompleted } from '../../support/imports.ts';
import type { Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { legacyCollection } from '../../support/anki-collection.ts';
import { writeZip } from '../../support/zip-writer.ts';

const run = promisify(execFile);
const ankiDir = new URL('../../anki/', import.meta.url).pathname;

let stack: Stack;
let user: TestUser;
useStack((started: Started) => ({ stack, user } = started), { fakeCost: '0.00001' });

interface ExpectedNote {
  expression: string;
  fields: string[];
  noteType: string;
  deck: string;
  queue: number;
  reviews: number;
  /** Anki's review log of the note's card: [id (its time in ms), ease]. */
  revlog: [number, number][];
}

const PACKAGES = ['modern.apkg', 'legacy.apkg', 'modern.colpkg', 'legacy.colpkg'] as const;
let built: { dir: string; notes: ExpectedNote[]; files: Record<(typeof PACKAGES)[number], Buffer> } | null = null;
let noAnki = '';

beforeAll(async () => {
  // The venv first (a minute or two the first time on this machine, then cached across worktrees).
  let python: string;
  try {
    python = (await run('sh', [join(ankiDir, 'ensure-venv.sh')], { timeout: 600_000 })).stdout.trim();
  } catch (error) {
    if ((error as { code?: number }).code !== 3) throw error;
    noAnki = String((error as { stderr?: string }).stderr ?? '').trim();
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'lcs-anki-packages-'));
  await run(python, [join(ankiDir, 'build-packages.py'), dir], { timeout: 300_000 });
  const expected = JSON.parse(await readFile(join(dir, 'expected.json'), 'utf8')) as { notes: ExpectedNote[] };
  const files = Object.fromEntries(await Promise.all(PACKAGES.map(async (name) => [name, await readFile(join(dir, name))]))) as Record<
    (typeof PACKAGES)[number],
    Buffer
  >;
  built = { dir, notes: expected.notes, files };
}, 900_000);

afterAll(async () => {
  if (built) await rm(built.dir, { recursive: true, force: true });
});

const send = (path: 'file' | 'preview', bytes: Buffer, query: string, token = user.token): Promise<RawReply> =>
  rawHttp(stack, 'POST', `/api/library/imports/${path}?${query}`, { token, rawBody: bytes, headers: { 'content-type': 'application/zip' } });

/** A field as the learner reads it: Anki's HTML gone. */
const plain = (html: string) => html.replace(/<[^>]*>/g, '');

describe('Anki packages written by a real Anki', () => {
  for (const name of PACKAGES) {
    it(`${name}: the preview names the decks and note types; the chosen deck, expression field and sentence field are read`, async (context) => {
      if (!built) return context.skip(`the real Anki cannot run here: ${noAnki}`);
      const notes = built.notes;
      const bytes = built.files[name];

      // Nothing chosen: every deck, each note type's first field.
      const all = bodyOf(await send('preview', bytes, `fileName=${name}`), 200);
      expect(all.format).toBe('apkg');
      // A deck package holds the decks of its cards; a collection package every deck, the empty one too.
      expect(all.anki.decks).toEqual([
        ...(name.endsWith('.colpkg') ? [{ name: 'Empty deck', notes: 0 }] : []),
        { name: 'English', notes: 0 },
        { name: 'English::Idioms', notes: 4 },
        { name: 'Phrasal verbs', notes: 3 },
      ]);
      expect(all.anki.noteTypes).toEqual(
        expect.arrayContaining([
          { name: 'Vocabulary', fields: ['Expression', 'Sentence', 'Meaning'], notes: 6 },
          { name: 'Basic', fields: ['Front', 'Back'], notes: 1 },
        ]),
      );
      expect(all.expressions).toBe(notes.length);
      expect(all.anki.reviews).toBe(notes.reduce((n, note) => n + note.reviews, 0));
      expect(all.anki.reviews).toBeGreaterThan(0);

      // The parent deck with its subdeck, the expression and sentence fields named.
      const idioms = bodyOf(await send('preview', bytes, 'deck=English&field=Expression&sentenceField=Sentence'), 200);
      const inIdioms = notes.filter((n) => n.deck === 'English::Idioms');
      expect(idioms.anki).toMatchObject({ chosenDecks: ['English'], field: 'Expression', sentenceField: 'Sentence' });
      expect(idioms.first.map((r: { text: string; context?: string }) => [r.text, r.context])).toEqual(inIdioms.map((n) => [n.fields[0], plain(n.fields[1]!)]));
      expect(idioms.anki.reviews).toBe(inIdioms.reduce((n, note) => n + note.reviews, 0));

      // Two decks by name; a note type without the sentence field keeps its expression, without a context.
      const both = bodyOf(await send('preview', bytes, 'deck=Phrasal%20verbs&deck=English%3A%3AIdioms&sentenceField=Sentence'), 200);
      expect(both.first.map((r: { text: string }) => r.text)).toEqual(notes.map((n) => n.expression));
      expect(both.first.find((r: { text: string }) => r.text === 'put off').context).toBeUndefined();

      // What cannot be read is named.
      expectProblem(await send('preview', bytes, 'deck=French'), 400, 'invalid_request');
      expect((await send('preview', bytes, 'deck=French')).body).toMatchObject({ reason: 'missing_deck', decks: expect.arrayContaining(['Phrasal verbs']) });
      expect((await send('preview', bytes, 'field=Example')).body).toMatchObject({
        reason: 'missing_field',
        field: 'Example',
        fields: expect.arrayContaining(['Expression', 'Sentence', 'Meaning', 'Front', 'Back']),
      });
      if (name.endsWith('.colpkg')) {
        const empty = await send('preview', bytes, 'deck=Empty%20deck');
        expectProblem(empty, 400, 'invalid_request');
        expect(empty.body).toMatchObject({ reason: 'nothing_in_deck', detail: 'The chosen deck holds no notes.' });
      }
    });
  }

  it(
    'imports the chosen deck: one card per note with its sentence as the context, every card prepared; ' +
      'the same package and choice again is the same import',
    async (context) => {
      if (!built) return context.skip(`the real Anki cannot run here: ${noAnki}`);
      const learner = await newUser(stack);
      const client = api(stack, { token: learner.token });
      const query = 'fileName=English.apkg&deck=English%3A%3AIdioms&field=Expression&sentenceField=Sentence';
      const created = bodyOf(await send('file', built.files['modern.apkg'], query, learner.token), 202);
      expect(created.parsed).toMatchObject({ expressions: 4 });
      expect(created.import).toMatchObject({ format: 'apkg', fileName: 'English.apkg' });
      const importId = created.import.importId;
      const done = await importCompleted(client, importId);
      expect(done.counts).toMatchObject({ total: 4, saved: 4, prepared: 4 });
      const rows = bodyOf(await client.GET('/api/library/imports/{importId}/rows', { params: { path: { importId } } }), 200);
      const idioms = built.notes.filter((n) => n.deck === 'English::Idioms');
      expect(rows.items.map((r) => r.text)).toEqual(idioms.map((n) => n.expression));
      for (const [i, row] of rows.items.entries()) {
        const card = bodyOf(await client.GET('/api/library/{cardId}', { params: { path: { cardId: row.cardId! } } }), 200).card;
        // A sentence that holds the expression as it is joins the card (the sentence with "spilled" stays on the import's row only).
        const sentence = plain(idioms[i]!.fields[1]!);
        expect(card.contexts.map((c) => c.text)).toEqual(sentence.includes(idioms[i]!.expression) ? [sentence] : []);
      }
      const again = await send('file', built.files['modern.apkg'], query, learner.token);
      expect(again.status).toBe(200);
      expect(again.body.import.importId).toBe(importId);
    },
  );
});

describe('Anki packages with their history', () => {
  it(
    'brings each card’s reviews when asked: its review log, and its schedule computed from them by FSRS, ' + 'so due dates carry over; said in the outcome',
    async (context) => {
      if (!built) return context.skip(`the real Anki cannot run here: ${noAnki}`);
      const learner = await newUser(stack);
      const client = api(stack, { token: learner.token });
      // A card suspended in Anki is left out (a card here is always in practice); a buried one comes, due tomorrow at the earliest.
      const suspended = built.notes.filter((n) => n.queue === -1);
      const kept = built.notes.filter((n) => n.queue !== -1);
      expect(suspended.map((n) => n.revlog.length)).toEqual([1]);
      expect(kept.filter((n) => n.queue === -2 || n.queue === -3).map((n) => n.revlog.length)).toEqual([1]);
      const reviewed = kept.filter((n) => n.revlog.length > 0);
      const reviews = reviewed.reduce((n, note) => n + note.revlog.length, 0);
      const preview = bodyOf(await send('preview', built.files['modern.apkg'], 'history=true', learner.token), 200);
      expect(preview.anki).toMatchObject({ reviews, history: true });
      expect(preview.expressions).toBe(kept.length);
      expect(preview.problems).toContainEqual({
        line: 0,
        code: 'suspended',
        message: '1 note is suspended in Anki; left out, as a card here is always in practice',
      });

      const created = bodyOf(await send('file', built.files['modern.apkg'], 'fileName=all.apkg&history=true', learner.token), 202);
      const done = await importCompleted(client, created.import.importId);
      expect(done.history).toEqual({ cards: reviewed.length, reviews });
      expect(done.outcome!.message).toContain(`${reviewed.length} cards with ${reviews} reviews; due dates kept.`);

      const rows = bodyOf(await client.GET('/api/library/imports/{importId}/rows', { params: { path: { importId: created.import.importId } } }), 200);
      for (const note of suspended) expect(rows.items.find((r) => r.text === note.expression)).toBeUndefined();
      for (const note of kept) {
        const row = rows.items.find((r) => r.text === note.expression)!;
        const card = bodyOf(await client.GET('/api/library/{cardId}', { params: { path: { cardId: row.cardId! } } }), 200).card;
        const logs = await stack.orm.em
          .fork()
          .execute<{ anki_review_id: string; rating: string; reviewed_at: Date }[]>(
            `SELECT anki_review_id, rating, reviewed_at FROM review_logs WHERE card_id = ? ORDER BY reviewed_at`,
            [row.cardId],
          );
        expect(logs.map((l) => [Number(l.anki_review_id), l.rating, new Date(l.reviewed_at).getTime()])).toEqual(
          note.revlog.map(([id, ease]) => [id, ['again', 'hard', 'good', 'easy'][ease - 1], id]),
        );
        if (note.revlog.length === 0) {
          expect(card.scheduling).toMatchObject({ state: 'new', reps: 0, lastReview: null });
          continue;
        }
        // The schedule is FSRS's over those reviews at the times Anki recorded, with the learner's (default) parameters.
        const expected = replayHistory({ reviews: note.revlog.map(([id, ease]) => [id, id, ease]) }, { desiredRetention: 0.9, weights: null })!.schedule;
        const lastReview = note.revlog.at(-1)![0];
        expect(card.scheduling).toMatchObject({ state: expected.state, reps: note.revlog.length, lastReview: new Date(lastReview).toISOString() });
        if (note.queue === -2 || note.queue === -3) {
          // Buried: a day after the import at the earliest, which is after its last review; never before FSRS's own due.
          expect(new Date(card.scheduling.due).getTime()).toBeGreaterThanOrEqual(Math.max(expected.due.getTime(), lastReview + 86_400_000));
        } else expect(card.scheduling.due).toBe(expected.due.toISOString());
        expect(new Date(card.scheduling.due).getTime()).toBeGreaterThan(note.revlog.at(-1)![0]);
      }
      // Without the choice, no review comes: the cards are new.
      const other = await newUser(stack);
      const plain = bodyOf(await send('file', built.files['modern.apkg'], 'fileName=all.apkg', other.token), 202);
      const plainDone = await importCompleted(api(stack, { token: other.token }), plain.import.importId);
      expect(plainDone.history).toBeNull();
      const counted = await stack.orm.em.fork().execute<{ n: string }[]>(`SELECT count(*) AS n FROM review_logs WHERE user_id = ?`, [other.userId]);
      expect(Number(counted[0]!.n)).toBe(0);
    },
  );
});

/** A SQLite file's bytes, made by `schema`. */
function sqliteBytes(schema: string): Buffer {
  const db = new DatabaseSync(':memory:');
  db.exec(schema);
  const bytes = Buffer.from(db.serialize());
  db.close();
  return bytes;
}

describe('hostile Anki packages: each refused with a clear problem, nothing stored', () => {
  const refused = async (bytes: Buffer, reason: string, detail: RegExp, query = 'fileName=deck.apkg') => {
    for (const path of ['preview', 'file'] as const) {
      const res = await send(path, bytes, query);
      expectProblem(res, 400, 'invalid_request');
      expect(res.body).toMatchObject({ reason });
      expect((res.body as { detail: string }).detail).toMatch(detail);
    }
  };

  it('reads a hand-made legacy collection (the baseline the hostile cases start from)', async () => {
    const ok = bodyOf(await send('preview', writeZip([{ name: 'collection.anki2', data: legacyCollection(['take off', 'set up']) }]), 'fileName=a.apkg'), 200);
    expect(ok.first.map((r: { text: string }) => r.text)).toEqual(['take off', 'set up']);
    expect(ok.anki.decks).toEqual([
      { name: 'Empty', notes: 0 },
      { name: 'Stories', notes: 0 },
      { name: 'Words', notes: 2 },
    ]);
  });

  it('a package with no notes in the chosen deck', async () => {
    const empty = writeZip([{ name: 'collection.anki2', data: legacyCollection(['take off']) }]);
    await refused(empty, 'nothing_in_deck', /^The chosen deck holds no notes\.$/, 'deck=Empty');
    await refused(writeZip([{ name: 'collection.anki2', data: legacyCollection([]) }]), 'nothing_in_deck', /^This package holds no notes\.$/);
  });

  it('a zip bomb: a small zip whose collection claims more than the limit is refused before anything is inflated', async () => {
    const bomb = writeZip([{ name: 'collection.anki2', data: Buffer.alloc(1000), declaredSize: ANKI_COLLECTION_MAX_BYTES + 1 }]);
    expect(bomb.length).toBeLessThan(2_000);
    await refused(bomb, 'archive_too_large', /unpacks to more than 200 MB/);
  });

  it('a zip bomb that lies: its collection inflates past the size it declares', async () => {
    const liar = writeZip([{ name: 'collection.anki2', data: Buffer.alloc(5_000_000), declaredSize: 1_000 }]);
    expect(liar.length).toBeLessThan(20_000);
    await refused(liar, 'archive_too_large', /do not match the sizes it declares/);
  });

  it('a zip of 100,000 entries is refused from its central directory', async () => {
    const many = writeZip(Array.from({ length: 100_000 }, (_, i) => ({ name: `${i}`, data: Buffer.alloc(0), store: true })));
    await refused(many, 'too_many_entries', /lists 100,000 files; a package may hold 20,000/);
  });

  it('a nested archive: a zip holding a package, and a package whose collection is itself a zip', async () => {
    const inner = writeZip([{ name: 'collection.anki2', data: legacyCollection(['take off']) }]);
    await refused(writeZip([{ name: 'my deck.apkg', data: inner }]), 'nested_archive', /holds another archive \(my deck\.apkg\)/);
    await refused(writeZip([{ name: 'collection.anki21', data: inner }]), 'nested_archive', /is itself an archive/);
  });

  it("a collection that is not Anki's schema, a database with code in its schema, and a zip with no collection", async () => {
    const kindle = sqliteBytes(`CREATE TABLE WORDS (id TEXT PRIMARY KEY, word TEXT); CREATE TABLE LOOKUPS (id TEXT, word_key TEXT)`);
    await refused(writeZip([{ name: 'collection.anki2', data: kindle }]), 'not_anki', /no col table/);
    const generated = sqliteBytes(`CREATE TABLE col (id integer, decks text, models text, huge text GENERATED ALWAYS AS (printf('%.*c', 100000000, 'x')))`);
    await refused(writeZip([{ name: 'collection.anki2', data: generated }]), 'damaged_sqlite', /generated column/);
    await refused(writeZip([{ name: 'notes.txt', data: Buffer.from('hello') }]), 'not_anki', /holds no collection/);
    await refused(
      writeZip([{ name: 'collection.anki2', data: Buffer.from('not a database at all, just text that is long enough to look like one') }]),
      'damaged_sqlite',
      /damaged/,
    );
  });

  it('a corrupt zstd frame, and a frame that unpacks past the limit', async () => {
    const frame = zstdCompressSync(legacyCollection(['take off']));
    const corrupt = Buffer.from(frame);
    corrupt.fill(0x5a, 12, 40);
    await refused(writeZip([{ name: 'collection.anki21b', data: corrupt }]), 'damaged_archive', /not a valid zstd frame/);
    // The frame says nothing true about its size until it is unpacked: the limit holds while unpacking.
    const huge = zstdCompressSync(Buffer.alloc(ANKI_COLLECTION_MAX_BYTES + 1_000_000));
    expect(huge.length).toBeLessThan(100_000);
    await refused(writeZip([{ name: 'collection.anki21b', data: huge }]), 'archive_too_large', /unpacks to more than 200 MB/);
  });

  it('more notes than an import takes: refused while reading, naming the limit', async () => {
    const notes = Array.from({ length: 20_001 }, (_, i) => `phrase number ${i}`);
    await refused(writeZip([{ name: 'collection.anki2', data: legacyCollection(notes) }]), 'too_many_expressions', /more than 20,000 notes/);
  });

  it('not a zip at all, with format=apkg', async () => {
    await refused(Buffer.from('just some text'), 'not_zip', /not a ZIP archive/, 'format=apkg');
  });
});
