/**
 * The import files of issue 33's findings, each made here as an attacker would send it: the
 * hostile-imports test asserts what each gets, the bench (`npm run bench hostile-imports`) times
 * `/healthz` while each is read.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/** Kindle's two tables as the device writes them, without its index on LOOKUPS.word_key unless `index`; `stem` as the caller declares it. */
export const kindleSchema = (stem = 'stem TEXT', index = false) => `
  CREATE TABLE LOOKUPS (id TEXT PRIMARY KEY NOT NULL UNIQUE, word_key TEXT, book_key TEXT, dict_key TEXT, pos TEXT, usage TEXT, timestamp INTEGER DEFAULT 0);
  CREATE TABLE WORDS (id TEXT PRIMARY KEY NOT NULL UNIQUE, word TEXT, ${stem}, lang TEXT, category INTEGER DEFAULT 0,
    timestamp INTEGER DEFAULT 0, profileid TEXT);
  ${index ? 'CREATE INDEX lookups_word_index ON LOOKUPS (word_key);' : ''}
`;

/** A vocab.db of `words` English words and `lookups` lookups spread over them (the earliest of each word the last inserted); `schema` replaces Kindle's. */
export function vocabDb(words: number, lookups: number, schema = kindleSchema()): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'lcs-hostile-'));
  try {
    const path = join(dir, 'vocab.db');
    const db = new DatabaseSync(path);
    db.exec(schema);
    db.exec('BEGIN');
    const word = db.prepare(`INSERT INTO WORDS (id, word, lang, timestamp) VALUES (?, ?, 'en', ?)`);
    for (let w = 0; w < words; w++) word.run(`en:word${w}`, `word${w}`, w);
    const lookup = db.prepare(`INSERT INTO LOOKUPS (id, word_key, usage, timestamp) VALUES (?, ?, ?, ?)`);
    for (let l = 0; l < lookups; l++) lookup.run(`L${l}`, `en:word${l % words}`, `We met word${l % words} in lookup ${l}.`, lookups - l);
    db.exec('COMMIT');
    db.close();
    return readFileSync(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface HostileFile {
  /** The finding, as the issue measured it. */
  name: string;
  body: Buffer;
  type: string;
  query: string;
}

/** 25 MB of distinct ordinary lines. */
export function ordinaryLines(bytes = 25_000_000): Buffer {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes - 64; i++) {
    const next = `an ordinary expression number ${i}\n`;
    parts.push(next);
    size += next.length;
  }
  return Buffer.from(parts.join(''));
}

/** A CSV header, one quote never closed, then 1,450,000 lines the same (about 25 MB). */
export const unclosedQuoteThenLines = () => Buffer.from(`word,meaning\n"never closed,x\n${'same thing,again\n'.repeat(1_450_000)}`);

/** Each file of the findings. */
export function hostileImportFiles(): HostileFile[] {
  const sqlite = 'application/vnd.sqlite3';
  return [
    { name: 'vocab.db without the index (2,000 words, 20,000 lookups)', body: vocabDb(2_000, 20_000), type: sqlite, query: 'fileName=vocab.db' },
    {
      name: 'vocab.db with a generated stem',
      body: vocabDb(3, 3, kindleSchema(`stem TEXT GENERATED ALWAYS AS (printf('%.*c', 40000000, 'x')) VIRTUAL`)),
      type: sqlite,
      query: 'fileName=vocab.db',
    },
    { name: 'CSV of 16,000 a"," lines', body: Buffer.from('a","\n'.repeat(16_000)), type: 'text/csv', query: 'format=csv' },
    {
      name: 'Anki notes, one field of 60,000 <',
      body: Buffer.from(`#separator:tab\n#html:true\n${'<'.repeat(60_000)}\tback\n<b>break</b> a leg\tbonne chance\n`),
      type: 'text/plain',
      query: 'format=anki',
    },
    { name: '25 MB of ordinary lines', body: ordinaryLines(), type: 'text/plain', query: 'format=lines' },
    { name: '25 MB, one unclosed quote then 1.45 M lines', body: unclosedQuoteThenLines(), type: 'text/csv', query: 'format=csv&column=word' },
  ];
}
