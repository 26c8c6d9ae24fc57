import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { insertReadyCards } from './helpers.ts';

const CARDS = 100_000;
let stack: Stack;
let user: TestUser;
beforeAll(async () => {
  stack = await startStack({ worker: false });
  user = await newUser(stack);
  await insertReadyCards(stack, user.userId, CARDS);
  const em = stack.orm.em.fork();
  await em.execute(`ANALYZE cards`);
}, 300_000);
afterAll(async () => {
  await stack?.close();
});

// A major GC on demand, to tell memory the export holds from garbage not yet collected.
v8.setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/**
 * Reads the export as a client would, counting bytes and line breaks. The server runs in this
 * process, so its memory is this process's: peak RSS growth (garbage included), and the heap
 * still in use after a full GC every few MB received (what the export really holds).
 */
async function measure(format: string) {
  collectGarbage();
  const baseline = process.memoryUsage();
  let peakRss = baseline.rss;
  let peakRetained = 0;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 20);
  const res = await fetch(`${stack.baseUrl}/api/library/export?format=${format}`, { headers: { authorization: `Bearer ${user.token}` } });
  expect(res.status).toBe(200);
  let bytes = 0;
  let newlines = 0;
  let nextCheck = 0;
  for await (const chunk of res.body!) {
    bytes += chunk.byteLength;
    for (const byte of chunk) if (byte === 0x0a) newlines++;
    if (bytes >= nextCheck) {
      collectGarbage();
      peakRetained = Math.max(peakRetained, process.memoryUsage().heapUsed - baseline.heapUsed);
      nextCheck += 4 * 2 ** 20;
    }
  }
  clearInterval(sampler);
  const mb = (n: number) => Number((n / 2 ** 20).toFixed(1));
  const figures = {
    format,
    cards: CARDS,
    megabytes: mb(bytes),
    peakRssGrowthMb: mb(peakRss - baseline.rss),
    retainedHeapMb: mb(peakRetained),
  };
  console.log(`export at ${CARDS} cards: ${JSON.stringify(figures)}`);
  return { ...figures, bytes, newlines };
}

it('streams 100,000 cards as csv with bounded memory', async () => {
  const csv = await measure('csv');
  // A header, then one CRLF record per card plus the line breaks inside each card's quoted examples field.
  expect(csv.newlines).toBe(1 + CARDS * 2);
  // The file is tens of MB; what the export holds at any time is a batch or two of rows.
  expect(csv.retainedHeapMb).toBeLessThan(16);
}, 120_000);

it('streams 100,000 Anki notes with bounded memory', async () => {
  const anki = await measure('anki');
  expect(anki.newlines).toBe(6 + CARDS);
  expect(anki.retainedHeapMb).toBeLessThan(16);
}, 120_000);

/** Asks for `path` one request at a time, 50 ms apart, while `until()` holds (once at least): every answer 200. */
async function answeredEveryTime(path: string, token: string | undefined, until: () => boolean) {
  let answered = 0;
  do {
    const res = await fetch(`${stack.baseUrl}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    await res.arrayBuffer();
    expect(res.status, path).toBe(200);
    answered++;
    await new Promise((resolve) => setTimeout(resolve, 50));
  } while (until());
  return answered;
}

// How fast they answer meanwhile is the bench's (bench/scenarios/export.ts: /readyz ≤ 1.5 s, credits ≤ 2 s, csv ≤ 60 s).
it('keeps /readyz and a small read answering while 40 exports of 100,000 cards are asked for at once, by one token and by others', async () => {
  await answeredEveryTime('/readyz', undefined, () => false);
  await answeredEveryTime('/api/credits', user.token, () => false);
  const others = [await newUser(stack), await newUser(stack), await newUser(stack)];
  for (const other of others) await insertReadyCards(stack, other.userId, 20_000);
  // All asked for at once; the answers' headers come first, then the files the service agreed to stream.
  const answers = await Promise.all(
    [...Array.from({ length: 40 }, () => user.token), ...others.map((o) => o.token)].map((token) =>
      fetch(`${stack.baseUrl}/api/library/export?format=csv`, { headers: { authorization: `Bearer ${token}` } }),
    ),
  );
  const statuses = answers.map((a) => a.status);
  let done = false;
  // Read at full speed: the most a download can ask of the service.
  const files = Promise.all(answers.map((a) => a.arrayBuffer())).finally(() => (done = true));
  const [readyz, credits] = await Promise.all([
    answeredEveryTime('/readyz', undefined, () => !done),
    answeredEveryTime('/api/credits', user.token, () => !done),
  ]);
  await files;
  console.log(`exports: ${JSON.stringify({ readyz, credits, statuses: statuses.join(',') })}`);
  // One token, one export (the others 429); the process streams at most EXPORT_MAX_CONCURRENT (3), the rest 503.
  expect(statuses.slice(0, 40).filter((s) => s === 200)).toHaveLength(1);
  expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(3);
  expect(statuses.every((s) => [200, 429, 503].includes(s))).toBe(true);
  // Every /readyz was 200 (answeredEveryTime): within its 2 s deadline, past which it answers 503 (the finding: a 503).
}, 300_000);
