/**
 * Library search and listing at scale: 100,000 cards for the measured user and 1,000,000 rows in
 * `cards` across ten users, seeded with generate_series (one statement per user). Each query is
 * sent one at a time (latency, not throughput): a common word, a rare word, an accent-folded
 * phrase, the first page and a deep page of the listing. Floor: GET /api/me in the same run.
 */
import { encodeCursor } from '../../src/features/library/listing.ts';
import type { BenchContext } from '../support.ts';

const CARDS_PER_USER = 100_000;
const USERS = 10;
const ROUNDS = 200;
const GOAL_P99_MS = 15;

export default async function search(ctx: BenchContext): Promise<void> {
  const users = await Promise.all(Array.from({ length: USERS }, () => ctx.createUser()));
  const seeded = performance.now();
  for (const user of users) await seedCards(ctx, user.userId);
  await ctx.orm.em.fork().execute(`ANALYZE cards`);
  console.log(`seeded ${USERS} × ${CARDS_PER_USER} cards in ${Math.round((performance.now() - seeded) / 1000)} s`);

  const user = users[0]!;
  const [deep] = await ctx.orm.em
    .fork()
    .execute<{ id: string; created_at: Date }[]>(`SELECT id, created_at FROM cards WHERE user_id = ? ORDER BY created_at DESC, id DESC OFFSET 90000 LIMIT 1`, [
      user.userId,
    ]);
  const deepCursor = encodeCursor({ createdAt: new Date(deep!.created_at), cardId: deep!.id });
  const floor = await timed(ctx, user.token, '/api/me');
  const queries: [string, string][] = [
    ['common word ("morning", 1 card in 3)', '/api/library?query=morning'],
    ['rare word ("zephyr", 10 cards)', '/api/library?query=zephyr'],
    ['accent-folded ("CREME BRULEE", 100 cards)', `/api/library?query=${encodeURIComponent('CREME BRULEE')}`],
    ['listing, first page (50)', '/api/library'],
    ['listing, page after 90,000 cards (50)', `/api/library?cursor=${deepCursor}`],
  ];
  for (const [name, path] of queries) {
    const result = await timed(ctx, user.token, path);
    ctx.report('search', `${name} p50 / p99`, `${result.p50.toFixed(1)} / ${result.p99.toFixed(1)} ms`, {
      floor: `${floor.p50.toFixed(1)} / ${floor.p99.toFixed(1)} ms`,
      goal: `p99 ≤ ${GOAL_P99_MS} ms`,
      met: result.p99 <= GOAL_P99_MS,
    });
  }
}

/** The user's cards: texts from a small vocabulary, a rare word every 10,000th, a French dish every 1,000th. */
async function seedCards(ctx: BenchContext, userId: string): Promise<void> {
  await ctx.orm.em.fork().execute(
    `INSERT INTO cards (id, user_id, text, normalised_key, enrichment_status, enrichment, enrichment_attempt, created_at)
     SELECT gen_random_uuid(), ?, t.text, lower(t.text), 'ready',
            jsonb_build_object('translation', 'traduction ' || i, 'correctedText', null, 'correctionNote', null,
              'usage', jsonb_build_object('register', 'neutral', 'guidance', 'g', 'examples', jsonb_build_array('e')),
              'focuses', jsonb_build_array(jsonb_build_object('kind', 'meaning', 'note', 'n'))), 1, now() - i * interval '1 second'
     FROM generate_series(1, ?) AS i,
     LATERAL (SELECT CASE WHEN i % 10000 = 0 THEN 'a zephyr ' || i
                          WHEN i % 1000 = 0 THEN 'crème brûlée ' || i
                          ELSE (ARRAY['good morning', 'break a leg', 'on the other hand', 'once in a blue moon', 'see you later', 'by the way'])[i % 6 + 1]
                            || ' ' || i END AS text) t`,
    [userId, CARDS_PER_USER],
  );
}

/** ROUNDS sequential GETs; p50 and p99 in ms. */
async function timed(ctx: BenchContext, token: string, path: string): Promise<{ p50: number; p99: number }> {
  const ms: number[] = [];
  for (let i = 0; i < ROUNDS + 10; i++) {
    const started = performance.now();
    const res = await fetch(ctx.baseUrl + path, { headers: { authorization: `Bearer ${token}` } });
    if (!res.ok) throw new Error(`GET ${path} → ${res.status}`);
    await res.arrayBuffer();
    if (i >= 10) ms.push(performance.now() - started); // the first ten warm the caches
  }
  ms.sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.ceil(q * ms.length) - 1)]!;
  return { p50: at(0.5), p99: at(0.99) };
}
