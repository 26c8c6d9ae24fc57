import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';

const CARDS = 100_000;
let stack: Stack;
let user: TestUser;
beforeAll(async () => {
  stack = await startStack({ worker: false });
  user = await newUser(stack);
  // 100,000 ready cards with schedules, written directly (the API path is covered in export.test.ts).
  const em = stack.orm.em.fork();
  await em.execute(
    `INSERT INTO cards (id, user_id, text, normalised_key, enrichment_status, enrichment, enrichment_attempt, created_at)
     SELECT gen_random_uuid(), ?, 'expression ' || i || ' ' || md5(i::text), 'expression ' || i || ' ' || md5(i::text), 'ready',
            jsonb_build_object('translation', 'traduction ' || md5((i + 1)::text), 'correctedText', null, 'correctionNote', null,
              'usage', jsonb_build_object('register', 'neutral', 'guidance', 'Use it "casually", with friends.', 'examples', jsonb_build_array('An example, with a comma.', 'Another one.')),
              'focuses', jsonb_build_array(jsonb_build_object('kind', 'meaning', 'note', 'n'))), 1, now() - i * interval '1 second'
     FROM generate_series(1, ${CARDS}) AS i`,
    [user.userId],
  );
  await em.execute(
    `INSERT INTO card_schedules (card_id, user_id, due, stability, difficulty, elapsed_days, scheduled_days, learning_steps, reps, lapses, state)
     SELECT id, user_id, created_at, 0, 0, 0, 0, 0, 0, 0, 'new' FROM cards WHERE user_id = ?`,
    [user.userId],
  );
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
  const started = performance.now();
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
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const mb = (n: number) => Number((n / 2 ** 20).toFixed(1));
  const figures = {
    format,
    cards: CARDS,
    seconds: Number(seconds.toFixed(2)),
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
  expect(csv.seconds).toBeLessThan(60);
}, 120_000);

it('streams 100,000 Anki notes with bounded memory', async () => {
  const anki = await measure('anki');
  expect(anki.newlines).toBe(6 + CARDS);
  expect(anki.retainedHeapMb).toBeLessThan(16);
}, 120_000);
