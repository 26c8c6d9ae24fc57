/**
 * Imports (issue 26), each figure beside the interactive path or the idle process of the same run:
 *
 * 1. The API's resident memory while it reads a 10,000-line file and a 20 MB Kindle vocab.db
 *    (POST /api/library/imports/preview and /file), against its idle RSS just before; sampled
 *    from /proc every 5 ms (and VmHWM, which misses nothing when it rises), so a busy API thread
 *    does not hide its own peak.
 * 2. 1,000 expressions imported (POST /api/library/imports) until every card is ready, against
 *    1,000 interactive captures (POST /api/library, 32 at a time) until ready, with the fake
 *    provider at 0 ms and at 1 s: wall time, and the API's and the worker's CPU per card.
 * 3. An interactive capture's latency (p50/p99) for a learner with no import, then for the same
 *    learner while an import of 10,000 prepares (provider at 0 ms: the import as busy as it gets),
 *    one capture every SAMPLE_EVERY_MS whatever the answers take (an open loop, so a slow answer
 *    does not hide the ones behind it).
 *
 * Imports are paced within the learner's model rate-limit bucket (RATE_LIMIT_MODEL_MAX per
 * RATE_LIMIT_WINDOW_SECONDS, less a reserve for interactive captures). The bench's is practically
 * unlimited, so here an import is bounded by its in-flight window instead; what the production
 * default budget makes of 1,000 cards is computed from the pacing rule and printed.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../../src/config.ts';
import { IMPORT_PREPARATIONS_IN_FLIGHT, pacedStartMs } from '../../src/features/library/imports/pacing.ts';
import { cpuSplit, sampleDatabaseWaits } from '../processes.ts';
import { type BenchContext, type BenchUser, waitForReady } from '../support.ts';

const COUNT = 1_000;
const SAMPLES = 300;
const SAMPLE_EVERY_MS = 100;
const LINES = 10_000;
const KINDLE_BYTES = 20_000_000;
const READY_TIMEOUT_MS = 240_000;

export default async function imports(ctx: BenchContext): Promise<void> {
  ctx.fake.reset();
  ctx.fake.setLatency(0);
  const run = randomUUID().slice(0, 8);
  budgetNote(ctx);

  // 1. Memory while a file is read, on a quiet system (before the loads grow the heap).
  await fileMemory(ctx, run);

  // 2. 1,000 to ready: imported against captured.
  for (const latencyMs of [0, 1000]) {
    ctx.fake.setLatency(latencyMs);
    const captured = await toReady(ctx, `1,000 captures (provider ${latencyMs} ms)`, async (user) => {
      await sendCaptures(
        ctx,
        user.token,
        Array.from({ length: COUNT }, (_, i) => `captured ${run} ${latencyMs} number ${i}`),
      );
    });
    const imported = await toReady(ctx, `import of 1,000 (provider ${latencyMs} ms)`, async (user) => {
      const expressions = Array.from({ length: COUNT }, (_, i) => `imported ${run} ${latencyMs} number ${i}`);
      await call(ctx, user.token, 'POST', '/api/library/imports', { expressions, source: 'bench.txt' });
    });
    const cpu = (r: Phase) => `${r.cpuMsPerCard.toFixed(1)} ms`;
    ctx.report(
      'imports',
      `1,000 imported → all ready, provider ${latencyMs} ms`,
      `${imported.seconds.toFixed(1)} s (${(imported.seconds / captured.seconds).toFixed(2)}×)`,
      {
        floor: `${captured.seconds.toFixed(1)} s for 1,000 captures`,
      },
    );
    ctx.report(
      'imports',
      `API + worker CPU per card, provider ${latencyMs} ms`,
      `${cpu(imported)} imported (${(imported.cpuMsPerCard / captured.cpuMsPerCard).toFixed(2)}×)`,
      {
        floor: `${cpu(captured)} captured`,
      },
    );
  }
  ctx.fake.setLatency(0);

  // 3. An interactive capture's latency without and during an import, same learner.
  await captureLatency(ctx, run);
}

/** Which model budget applied here, and what the production default makes of 1,000 cards (from the pacing rule, not waited for). */
function budgetNote(ctx: BenchContext): void {
  const here = ctx.config.rateLimit;
  const production = loadConfig({}).rateLimit;
  const minutes = pacedStartMs(COUNT, { limit: production.modelMax, periodMs: production.windowSeconds * 1000 }) / 60_000;
  const benchSeconds = pacedStartMs(COUNT, { limit: here.modelMax, periodMs: here.windowSeconds * 1000 }) / 1000;
  console.log(
    `Model budget here: ${here.modelMax.toLocaleString('en')} per ${here.windowSeconds} s (the bench's), so an import is bounded by its ` +
      `${IMPORT_PREPARATIONS_IN_FLIGHT} preparations in flight and its steps (at least ${benchSeconds.toFixed(1)} s for 1,000); ` +
      `at the production default (${production.modelMax} per ${production.windowSeconds} s, a sixth kept for interactive captures) the pacing starts 1,000 ` +
      `in ${minutes.toFixed(1)} min.`,
  );
  ctx.report('imports', 'model budget in this run', `${here.modelMax.toLocaleString('en')} / ${here.windowSeconds} s (the bench's)`);
  ctx.report('imports', '1,000 imported at the production budget', `≥ ${minutes.toFixed(1)} min (computed)`, {
    floor: `${production.modelMax} / ${production.windowSeconds} s, a sixth reserved`,
  });
}

// ---- Memory -------------------------------------------------------------------------------------

async function fileMemory(ctx: BenchContext, run: string): Promise<void> {
  const lines = Buffer.from(Array.from({ length: LINES }, (_, i) => `bench line ${run} phrase ${i}\n`).join(''));
  const kindle = buildVocabDb(run);
  const files = [
    { name: `${LINES.toLocaleString('en')}-line file (${(lines.length / 1e6).toFixed(1)} MB)`, bytes: lines, type: 'text/plain', query: 'format=lines' },
    { name: `Kindle vocab.db (${(kindle.length / 1e6).toFixed(1)} MB)`, bytes: kindle, type: 'application/vnd.sqlite3', query: 'format=kindle' },
  ];
  const users = await Promise.all(files.map(() => ctx.createUser()));
  await sleep(2_000); // sign-ups' password hashing settles
  for (const [i, file] of files.entries()) {
    const user = users[i]!;
    for (const route of ['preview', 'file'] as const) {
      const idle = await idleRss(ctx);
      const { peak, ms, body } = await duringRequest(ctx, () => upload(ctx, user.token, `/api/library/imports/${route}?${file.query}`, file.bytes, file.type));
      const expressions =
        route === 'preview' ? (body as { expressions: number }).expressions : (body as { parsed: { expressions: number } }).parsed.expressions;
      console.log(
        `${route} of the ${file.name}: ${expressions} expressions, ${ms.toFixed(0)} ms; API RSS idle ${idle.toFixed(0)} MB, peak ${peak.toFixed(0)} MB`,
      );
      ctx.report('imports', `API RSS, ${route} of a ${file.name}`, `${peak.toFixed(0)} MB peak (+${(peak - idle).toFixed(0)} MB, ${ms.toFixed(0)} ms)`, {
        floor: `${idle.toFixed(0)} MB idle`,
      });
      if (route === 'file') {
        // Only the reading was measured: cancel, and let the saving stop, before the next figure.
        const importId = (body as { import: { importId: string } }).import.importId;
        await call(ctx, user.token, 'POST', `/api/library/imports/${importId}/cancel`);
        await settled(ctx, user.token, importId);
        await nonePending(ctx, user.userId);
      }
    }
  }
}

/** The API's RSS at rest: the last of a second's samples. */
async function idleRss(ctx: BenchContext): Promise<number> {
  await sleep(1_000);
  return ctx.rss().api;
}

/** The API's peak RSS while `request` runs: /proc every 5 ms, and VmHWM when it rose past what it was (exact). */
export async function duringRequest<T>(ctx: BenchContext, request: () => Promise<T>): Promise<{ peak: number; ms: number; body: T }> {
  const hwmBefore = ctx.peakRss().api;
  let peak = ctx.rss().api;
  const timer = setInterval(() => (peak = Math.max(peak, ctx.rss().api)), 5);
  const started = performance.now();
  try {
    const body = await request();
    const ms = performance.now() - started;
    peak = Math.max(peak, ctx.rss().api);
    const hwm = ctx.peakRss().api;
    return { peak: hwm > hwmBefore ? Math.max(peak, hwm) : peak, ms, body };
  } finally {
    clearInterval(timer);
  }
}

/**
 * A Kindle vocab.db of about KINDLE_BYTES in Kindle's schema (WORDS, LOOKUPS with its indexes,
 * BOOK_INFO, DICT_INFO, METADATA, VERSION): 9,500 English and 500 German words, each looked up
 * about four times in one of 40 books with a sentence of a couple of hundred characters.
 */
export function buildVocabDb(run: string): Buffer {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lcs-bench-kindle-'));
  const file = path.join(dir, 'vocab.db');
  try {
    const db = new DatabaseSync(file);
    db.exec(`
      CREATE TABLE WORDS (id TEXT PRIMARY KEY NOT NULL UNIQUE, word TEXT, stem TEXT, lang TEXT, category INTEGER DEFAULT 0,
        timestamp INTEGER DEFAULT 0, profileid TEXT);
      CREATE INDEX wordprofileid ON WORDS (profileid);
      CREATE TABLE LOOKUPS (id TEXT PRIMARY KEY NOT NULL UNIQUE, word_key TEXT, book_key TEXT, dict_key TEXT, pos TEXT, usage TEXT,
        timestamp INTEGER DEFAULT 0);
      CREATE INDEX lookupwordkey ON LOOKUPS (word_key);
      CREATE INDEX lookupbookkey ON LOOKUPS (book_key);
      CREATE TABLE BOOK_INFO (id TEXT PRIMARY KEY NOT NULL UNIQUE, asin TEXT, guid TEXT, lang TEXT, title TEXT, authors TEXT);
      CREATE TABLE DICT_INFO (id TEXT PRIMARY KEY NOT NULL UNIQUE, asin TEXT, langin TEXT, langout TEXT);
      CREATE TABLE METADATA (id TEXT PRIMARY KEY NOT NULL UNIQUE, dsname TEXT, sscnt INTEGER, profileid TEXT);
      CREATE TABLE VERSION (id TEXT PRIMARY KEY NOT NULL UNIQUE, dsname TEXT, value INTEGER);
      INSERT INTO VERSION VALUES ('WORDS', 'WORDS', 1), ('LOOKUPS', 'LOOKUPS', 1);
      INSERT INTO DICT_INFO VALUES ('B003ODIZL6', 'B003ODIZL6', 'en', 'en');`);
    const book = db.prepare(`INSERT INTO BOOK_INFO VALUES (?, ?, ?, 'en', ?, 'Bench Author')`);
    const word = db.prepare(`INSERT INTO WORDS VALUES (?, ?, ?, ?, 0, ?, '')`);
    const lookup = db.prepare(`INSERT INTO LOOKUPS VALUES (?, ?, ?, 'B003ODIZL6', '', ?, ?)`);
    const books = Array.from({ length: 40 }, (_, i) => `CR!${run.toUpperCase()}BOOK${String(i).padStart(20, '0')}`);
    db.exec('BEGIN');
    for (const [i, id] of books.entries()) book.run(`${id}:A0B1`, `B00${i}`, id, `A bench novel, volume ${i + 1}`);
    const letters = (n: number) => n.toString(26).replace(/./g, (d) => String.fromCharCode(97 + parseInt(d, 26)));
    const filler = 'and the evening light fell across the harbour while the old sailors mended their nets and spoke of distant storms';
    let n = 0;
    for (let i = 0; i < 10_000; i++) {
      const lang = i % 20 === 19 ? 'de' : 'en';
      const stem = `${lang === 'de' ? 'wort' : 'lex'}${letters(i + 1000)}`;
      const key = `${lang}:${stem}`;
      word.run(key, `${stem}ing`, stem, lang, 1_600_000_000_000 + i * 60_000);
      for (let j = 0; j < 3 + (i % 3); j++) {
        const usage = `She paused at the word ${stem}ing, ${filler}, ${filler.slice(0, 40 + ((i + j) % 60))}.`;
        lookup.run(`${books[(i + j) % books.length]}:${1000 + n}`, key, `${books[(i + j) % books.length]}:A0B1`, usage, 1_600_000_000_000 + n * 10_000);
        n++;
      }
    }
    db.exec('COMMIT');
    db.close();
    if (statSync(file).size < KINDLE_BYTES * 0.95) throw new Error(`the vocab.db is ${statSync(file).size} bytes, short of ${KINDLE_BYTES}`);
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function upload(ctx: BenchContext, token: string, url: string, bytes: Buffer, type: string): Promise<unknown> {
  const res = await fetch(ctx.baseUrl + url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': type }, body: bytes });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${url} → ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

// ---- 1,000 to ready -----------------------------------------------------------------------------

interface Phase {
  seconds: number;
  cpuMsPerCard: number;
}

/** A new learner, `send` (its cards), then until COUNT of its cards are ready: wall time and the API's and worker's CPU per card. */
async function toReady(ctx: BenchContext, name: string, send: (user: BenchUser) => Promise<void>): Promise<Phase> {
  const user = await ctx.createUser();
  await sleep(500);
  const before = ctx.cpu();
  const started = performance.now();
  await send(user);
  const seconds = await waitForReady(ctx, user.userId, COUNT, started, READY_TIMEOUT_MS);
  const after = ctx.cpu();
  const cpuMsPerCard = ((after.api! - before.api! + (after.worker! - before.worker!)) * 1000) / COUNT;
  console.log(`${name} → all ready in ${seconds.toFixed(1)} s; API + worker ${cpuMsPerCard.toFixed(1)} ms per card; CPU: ${cpuSplit(before, after)}`);
  return { seconds, cpuMsPerCard };
}

/** Sends each text as an interactive capture, 32 at a time. */
export async function sendCaptures(ctx: BenchContext, token: string, texts: string[]): Promise<void> {
  let next = 0;
  const send = async () => {
    while (next < texts.length) await call(ctx, token, 'POST', '/api/library', { text: texts[next++] });
  };
  await Promise.all(Array.from({ length: 32 }, send));
}

/** Polls until none of the user's cards waits for its preparation (a cancelled import's are failed `import_cancelled`). */
async function nonePending(ctx: BenchContext, userId: string): Promise<void> {
  const em = ctx.orm.em.fork();
  const started = performance.now();
  for (;;) {
    const [row] = await em.execute<{ pending: string }[]>(`SELECT count(*) AS pending FROM cards WHERE user_id = ? AND enrichment_status = 'pending'`, [
      userId,
    ]);
    if (Number(row!.pending) === 0) return;
    if (performance.now() - started > READY_TIMEOUT_MS) throw new Error(`${row!.pending} cards still pending`);
    await sleep(100);
  }
}

// ---- An interactive capture during an import ----------------------------------------------------

async function captureLatency(ctx: BenchContext, run: string): Promise<void> {
  const user = await ctx.createUser();
  await sleep(500);
  const waitsAlone = sampleDatabaseWaits(ctx.orm);
  const alone = await pacedCaptures(ctx, user.token, `alone ${run}`);
  console.log(`PostgreSQL sessions meanwhile (samples every 20 ms): ${await waitsAlone()}`);
  await waitForReady(ctx, user.userId, SAMPLES, performance.now(), READY_TIMEOUT_MS);

  const expressions = Array.from({ length: 10_000 }, (_, i) => `imported meanwhile ${run} number ${i}`);
  const created = (await call(ctx, user.token, 'POST', '/api/library/imports', { expressions })) as { import: { importId: string } };
  const importId = created.import.importId;
  const preparing = await importView(ctx, user.token, importId, (view) => view.state !== 'saving');
  if (preparing.state !== 'preparing') throw new Error(`the import is ${preparing.state}, not preparing`);
  const cpuBefore = ctx.cpu();
  const waits = sampleDatabaseWaits(ctx.orm);
  const during = await pacedCaptures(ctx, user.token, `during ${run}`);
  const cpuAfter = ctx.cpu();
  console.log(`PostgreSQL sessions meanwhile (samples every 20 ms): ${await waits()}`);
  const after = await importView(ctx, user.token, importId, () => true);
  await call(ctx, user.token, 'POST', `/api/library/imports/${importId}/cancel`);
  const prepared = after.counts.prepared - preparing.counts.prepared;
  console.log(
    `The import prepared ${prepared} cards (${(prepared / during.seconds).toFixed(1)}/s) while ${SAMPLES} captures were timed; CPU meanwhile: ` +
      `${cpuSplit(cpuBefore, cpuAfter)}`,
  );
  await settled(ctx, user.token, importId);
  await nonePending(ctx, user.userId);

  const ms = (l: Latency) => `${l.p50.toFixed(0)} / ${l.p99.toFixed(0)} ms`;
  ctx.report(
    'imports',
    `capture p50 / p99 during an import (${SAMPLES}, one per ${SAMPLE_EVERY_MS} ms)`,
    `${ms(during)} (p99 ${(during.p99 / alone.p99).toFixed(2)}×)`,
    {
      floor: `${ms(alone)} with no import`,
    },
  );
}

interface Latency {
  p50: number;
  p99: number;
  seconds: number;
}

/** SAMPLES captures, one started every SAMPLE_EVERY_MS whatever the others take: their latencies. */
async function pacedCaptures(ctx: BenchContext, token: string, label: string): Promise<Latency> {
  const started = performance.now();
  const timed = Array.from({ length: SAMPLES }, async (_, i) => {
    await sleep(Math.max(0, started + i * SAMPLE_EVERY_MS - performance.now()));
    const t = performance.now();
    await call(ctx, token, 'POST', '/api/library', { text: `interactive ${label} number ${i}` });
    return performance.now() - t;
  });
  const ms = (await Promise.all(timed)).sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.ceil(q * ms.length) - 1)]!;
  const result = { p50: at(0.5), p99: at(0.99), seconds: (performance.now() - started) / 1000 };
  console.log(`${SAMPLES} captures, ${label}: p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, slowest ${ms.at(-1)!.toFixed(1)} ms`);
  return result;
}

// ---- HTTP ---------------------------------------------------------------------------------------

export async function call(ctx: BenchContext, token: string, method: string, url: string, body?: unknown): Promise<unknown> {
  const res = await fetch(ctx.baseUrl + url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

interface ImportView {
  state: string;
  counts: { prepared: number; preparing: number };
}

/** Polls the import until `done` says so. */
async function importView(ctx: BenchContext, token: string, importId: string, done: (view: ImportView) => boolean): Promise<ImportView> {
  const started = performance.now();
  for (;;) {
    const view = ((await call(ctx, token, 'GET', `/api/library/imports/${importId}`)) as { import: ImportView }).import;
    if (done(view)) return view;
    if (performance.now() - started > READY_TIMEOUT_MS) throw new Error(`import ${importId} still ${view.state}`);
    await sleep(100);
  }
}

/** A cancelled import has settled: nothing of it in flight. */
const settled = (ctx: BenchContext, token: string, importId: string) =>
  importView(ctx, token, importId, (view) => view.state === 'cancelled' && view.counts.preparing === 0);
