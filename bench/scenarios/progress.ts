// The Progress screen's reads (issue 28) for a learner with 10,000 cards and 100,000 reviews over a
// year, in sessions, beside another learner's history: each read 200 times in a row over HTTP,
// p50 / p99, beside GET /api/me (an authenticated read of one small query) measured in the same run.
import type { BenchContext } from '../support.ts';

const CARDS = 10_000;
const REVIEWS = 100_000;
const ROUNDS = 200;
const READS = [
  '/api/progress/forecast?timeZone=America/New_York',
  '/api/progress/reviews?timeZone=America/New_York',
  '/api/progress/library?timeZone=America/New_York',
  '/api/progress/credits?timeZone=America/New_York',
  '/api/progress/retention',
];

export default async function progress(ctx: BenchContext): Promise<void> {
  const user = await ctx.createUser();
  const other = await ctx.createUser();
  const seeded = performance.now();
  await seedHistory(ctx, user.userId, REVIEWS);
  await seedHistory(ctx, other.userId, REVIEWS / 2);
  await ctx.orm.em.fork().execute(`VACUUM ANALYZE cards, card_schedules, review_logs, review_quarters, ledger_entries`);
  console.log(`seeded ${CARDS} cards and ${REVIEWS} reviews (and half as many for another learner) in ${Math.round(performance.now() - seeded)} ms`);

  const auth = { authorization: `Bearer ${user.token}` };
  const baseline = await timed(ctx, '/api/me', auth);
  const floor = `${baseline.p50.toFixed(1)} / ${baseline.p99.toFixed(1)} ms (GET /api/me, ${ROUNDS} in a row)`;
  ctx.report('progress', 'baseline GET /api/me p50 / p99 (ms)', `${baseline.p50.toFixed(1)} / ${baseline.p99.toFixed(1)}`);
  for (const path of READS) {
    const t = await timed(ctx, path, auth);
    ctx.report('progress', `GET ${path.split('?')[0]} p50 / p99`, `${t.p50.toFixed(1)} / ${t.p99.toFixed(1)} ms`, {
      floor,
      goal: 'p99 ≤ 50 ms',
      met: t.p99 <= 50,
    });
  }
}

/** `reviews` reviews over a year on 10,000 cards, in two sessions a day; 1,000 charges; a fit of the learner's weights. */
async function seedHistory(ctx: BenchContext, userId: string, reviews: number): Promise<void> {
  const em = () => ctx.orm.em.fork();
  await em().execute(
    `WITH inserted AS (
       INSERT INTO cards (id, user_id, text, normalised_key, enrichment_status, created_at)
       SELECT gen_random_uuid(), ?, 'bench expression ' || g, 'bench expression ' || g, CASE WHEN g % 500 = 0 THEN 'pending' ELSE 'ready' END,
              now() - (g % 365) * interval '1 day' FROM generate_series(1, ?) AS g
       RETURNING id, created_at, (regexp_match(text, '(\\d+)$'))[1]::int AS n)
     INSERT INTO card_schedules (card_id, user_id, due, stability, difficulty, elapsed_days, scheduled_days, learning_steps, reps, lapses, state, last_review)
     SELECT id, ?, now() + ((n % 60) - 10) * interval '1 day', 10, 5, 0, 0, 0, 3, 0,
            (ARRAY['new', 'learning', 'review', 'review', 'review', 'relearning'])[n % 6 + 1], now() - interval '3 days'
     FROM inserted`,
    [userId, CARDS, userId],
  );
  await em().execute(
    `WITH c AS (SELECT id, (row_number() OVER (ORDER BY id)) - 1 AS n FROM cards WHERE user_id = ?)
     INSERT INTO review_logs (card_id, user_id, rating, state, due, stability, difficulty, elapsed_days, last_elapsed_days, scheduled_days,
       learning_steps, reviewed_at, used_hint, auto_filled, unaided_errors, hidden_count, duration_ms)
     SELECT c.id, ?, (ARRAY['again', 'hard', 'good', 'good', 'good', 'easy'])[g % 6 + 1], 'review', now(), 5, 5, 3, 3, g % 40, 0,
            now() - (g % 365) * interval '1 day' - (CASE WHEN g % 2 = 0 THEN 5 ELSE 17 END) * interval '1 hour' - (g % 97) * interval '20 seconds',
            false, false, 0, 3, 2000 + g % 30000
     FROM generate_series(1, ?) AS g JOIN c ON c.n = (g * 7919) % ${CARDS}`,
    [userId, userId, reviews],
  );
  await em().execute(
    `INSERT INTO ledger_entries (user_id, idempotency_key, kind, amount, balance_after, reason, period_start, created_at)
     SELECT ?, 'bench-' || g, (ARRAY['capture_preparation', 'work', 'audio', 'page_translation', 'sentence_translation'])[g % 5 + 1], -1,
            greatest(0, 500 - g % 500), 'bench', now() - interval '20 days', now() - (g % 60) * interval '1 day'
     FROM generate_series(1, 1000) AS g`,
    [userId],
  );
  await em().execute(
    `INSERT INTO fsrs_parameters (user_id, version, weights, log_size, log_loss, rmse, baseline_log_loss, baseline_rmse, applied, run_key,
       train_size, held_out_size, default_log_loss, default_rmse)
     VALUES (?, 1, '{0.1,0.6,1.8,6,6.8,0.6,2.5,0.01,1.6,0.2,0.9,1.6,0.08,0.3,1.7,0.5,2,0.6,0.1,0.07,0.25}', 90000, 0.31, 0.04, 0.35, 0.05, true, ?,
       72000, 18000, 0.35, 0.05)`,
    [userId, `bench-${userId}`],
  );
}

/** `ROUNDS` sequential GETs after 5 to warm up (the first retention read computes its curve). */
async function timed(ctx: BenchContext, path: string, headers: Record<string, string>): Promise<{ p50: number; p99: number }> {
  const get = async () => {
    const res = await fetch(ctx.baseUrl + path, { headers });
    if (!res.ok) throw new Error(`GET ${path} → ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  };
  for (let i = 0; i < 5; i++) await get();
  const ms: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    await get();
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.ceil(q * ms.length) - 1)]!;
  return { p50: at(0.5), p99: at(0.99) };
}
