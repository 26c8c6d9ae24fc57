import { DatabaseSync } from 'node:sqlite';

/** A note of a hand-made collection: a string is a Basic note (its Front, a "back" Back) in the deck Words. */
type LegacyNote =
  string | { deck: 'Words' | 'Stories'; fields: [front: string, back: string, sentence: string]; reviews?: [at: number, ease: number][]; queue?: number };

const DECKS = { Words: 20, Stories: 40 };

/**
 * A legacy Anki collection (schema 11: decks and note types as JSON in `col`) made by hand, for
 * the cases a real Anki never writes (hostile packages) and the browser tests, which need no Python.
 * Decks: Words, Stories and an empty one (Empty); the note type Basic has the fields Front, Back, Sentence.
 */
export function legacyCollection(notes: LegacyNote[]): Buffer {
  const db = new DatabaseSync(':memory:');
  db.exec(`
    CREATE TABLE col (id integer primary key, crt integer, mod integer, scm integer, ver integer, dty integer, usn integer, ls integer,
      conf text, models text, decks text, dconf text, tags text);
    CREATE TABLE notes (id integer primary key, guid text, mid integer, mod integer, usn integer, tags text, flds text, sfld integer, csum integer,
      flags integer, data text);
    CREATE TABLE cards (id integer primary key, nid integer, did integer, ord integer, mod integer, usn integer, type integer, queue integer,
      due integer, ivl integer, factor integer, reps integer, lapses integer, left integer, odue integer, odid integer, flags integer, data text);
    CREATE TABLE revlog (id integer primary key, cid integer, usn integer, ease integer, ivl integer, lastIvl integer, factor integer, time integer,
      type integer);
    CREATE INDEX ix_cards_nid on cards (nid);`);
  const fields = ['Front', 'Back', 'Sentence'].map((name, ord) => ({ name, ord }));
  db.prepare(`INSERT INTO col VALUES (1, 0, 0, 0, 11, 0, 0, 0, '{}', ?, ?, '{}', '{}')`).run(
    JSON.stringify({ 10: { name: 'Basic', flds: fields } }),
    JSON.stringify({ 1: { name: 'Default' }, [DECKS.Words]: { name: 'Words' }, [DECKS.Stories]: { name: 'Stories' }, 30: { name: 'Empty' } }),
  );
  notes.forEach((note, i) => {
    const {
      deck,
      fields: values,
      reviews = [],
      queue = 0,
    } = typeof note === 'string' ? { deck: 'Words' as const, fields: [note, 'back', ''], reviews: [] } : note;
    db.prepare(`INSERT INTO notes VALUES (?, ?, 10, 0, 0, '', ?, 0, 0, 0, '')`).run(i + 1, `g${i}`, values.join('\u001f'));
    db.prepare(`INSERT INTO cards VALUES (?, ?, ?, 0, 0, 0, 0, ?, 0, 0, 0, 0, 0, 0, 0, 0, 0, '')`).run(i + 1, i + 1, DECKS[deck], queue);
    // A review's id is its time in milliseconds; type 1 is a review.
    for (const [at, ease] of reviews) db.prepare(`INSERT INTO revlog VALUES (?, ?, 0, ?, 1, 0, 2500, 6000, 1)`).run(at, i + 1, ease);
  });
  const bytes = Buffer.from(db.serialize());
  db.close();
  return bytes;
}
