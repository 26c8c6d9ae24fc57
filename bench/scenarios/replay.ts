// Replay under a large library: opening a session (GET /api/replay?count=50) for a user with
// 10,000 ready cards, resuming it, and completing items (POST /api/replay). Baseline: GET /api/me
// (authenticated read, one small query) measured in the same run.
import type { BenchContext, BenchUser } from '../support.ts';

const CARDS = 10_000;
const OPEN_ROUNDS = 150;
const COMPLETION_SESSIONS = 20;
const COMPLETION_CONCURRENCY = 10;

export default async function replay(ctx: BenchContext): Promise<void> {
  const user = await ctx.createUser();
  const seeded = performance.now();
  await seedLibrary(ctx, user.userId);
  // A library of 10,000 cards grew over months, and autovacuum analysed it meanwhile.
  await ctx.orm.em.fork().execute(`ANALYZE cards, card_schedules`);
  console.log(`seeded ${CARDS} ready cards with schedules in ${Math.round(performance.now() - seeded)} ms (one statement)`);

  const auth = { authorization: `Bearer ${user.token}` };
  const baseline = await ctx.load({ requests: [{ method: 'GET', path: '/api/me' }], headers: auth, connections: 10, duration: 5 });
  ctx.report('replay', 'baseline GET /api/me p50 / p99 (ms)', `${baseline.latency.p50} / ${baseline.latency.p99}`);
  ctx.report('replay', 'baseline GET /api/me req/s', `${Math.round(baseline.requests.average)}`);

  // Opening: each round opens a new 50-item session, then the session is closed in SQL so the next
  // GET builds a new one from the 10,000 cards (due reviews first, then new cards).
  const openMs: number[] = [];
  for (let i = 0; i < OPEN_ROUNDS; i++) {
    const started = performance.now();
    const session = await getJson(ctx, '/api/replay?count=50', auth);
    openMs.push(performance.now() - started);
    if (session.items.length !== 50 || session.resumed) throw new Error('expected a fresh 50-item session');
    await ctx.orm.em.fork().execute(`UPDATE replay_sessions SET finished_at = now() WHERE id = ?`, [session.sessionId]);
  }
  const open = percentiles(openMs);
  ctx.report(
    'replay',
    `open session, 50 of ${CARDS} cards p50 / p99`,
    `${open.p50.toFixed(1)} / ${open.p99.toFixed(1)} ms (${ratio(open.p50, baseline.latency.p50)} × floor p50)`,
    {
      floor: `${baseline.latency.p50} / ${baseline.latency.p99} ms (GET /api/me)`,
      goal: 'p99 ≤ 10 ms',
      met: open.p99 <= 10,
    },
  );

  // Resuming: the open session is returned again (what a client does on reload).
  await getJson(ctx, '/api/replay?count=50', auth);
  const resume = await ctx.load({ requests: [{ method: 'GET', path: '/api/replay?count=50' }], headers: auth, connections: 10, duration: 5 });
  ctx.report('replay', 'resume session (50 items) p50 / p99 (ms)', `${resume.latency.p50} / ${resume.latency.p99}`);
  ctx.report(
    'replay',
    'resume session req/s',
    `${Math.round(resume.requests.average)}  (${ratio(resume.requests.average, baseline.requests.average)} × baseline)`,
  );
  await ctx.orm.em.fork().execute(`UPDATE replay_sessions SET finished_at = now() WHERE user_id = ? AND finished_at IS NULL`, [user.userId]);

  // Completing: real first completions (reschedule + review log), 10 in flight at a time.
  const completionMs: number[] = [];
  let completions = 0;
  let busyMs = 0;
  for (let s = 0; s < COMPLETION_SESSIONS; s++) {
    const session = await getJson(ctx, '/api/replay?count=50', auth);
    const queue = [...session.items] as { itemId: string }[];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: COMPLETION_CONCURRENCY }, async () => {
        for (let item = queue.shift(); item; item = queue.shift()) {
          const t = performance.now();
          await postJson(ctx, '/api/replay', auth, { itemId: item.itemId, usedHint: false, autoFilled: false, unaidedErrors: completions % 3 });
          completionMs.push(performance.now() - t);
          completions++;
        }
      }),
    );
    busyMs += performance.now() - started;
  }
  const complete = percentiles(completionMs);
  ctx.report('replay', `completions (${completions}, ${COMPLETION_CONCURRENCY} in flight) per second`, `${Math.round(completions / (busyMs / 1000))}`);
  ctx.report('replay', 'completion p50 / p99 (ms)', `${complete.p50.toFixed(1)} / ${complete.p99.toFixed(1)}`);
  const [logs] = await ctx.orm.em.fork().execute<{ n: string }[]>(`SELECT count(*) AS n FROM review_logs WHERE user_id = ?`, [user.userId]);
  if (Number(logs!.n) !== completions) throw new Error(`expected ${completions} review logs, found ${logs!.n}`);
}

/** 10,000 ready cards and their schedules in one statement: 30 % due reviews, 20 % reviews not yet due, 50 % new. */
async function seedLibrary(ctx: BenchContext, userId: BenchUser['userId']): Promise<void> {
  await ctx.orm.em.fork().execute(
    `WITH inserted AS (
       INSERT INTO cards (id, user_id, text, normalised_key, enrichment_status, enrichment, created_at, enriched_at)
       SELECT gen_random_uuid(), ?, 'bench expression number ' || g, 'bench expression number ' || g, 'ready',
         jsonb_build_object('translation', '[fr] expression ' || g, 'correctedText', NULL, 'correctionNote', NULL,
           'usage', jsonb_build_object('register', 'neutral', 'guidance', 'Use it anywhere.', 'examples', jsonb_build_array('An example.')),
           'focuses', jsonb_build_array()),
         now() - g * interval '1 minute', now()
       FROM generate_series(1, ?) AS g
       RETURNING id, created_at, (regexp_match(text, '(\\d+)$'))[1]::int AS n
     )
     INSERT INTO card_schedules (card_id, user_id, due, stability, difficulty, elapsed_days, scheduled_days, learning_steps, reps, lapses, state, last_review)
     SELECT id, ?,
       CASE WHEN n % 10 < 3 THEN now() - (n % 97) * interval '1 hour'
            WHEN n % 10 < 5 THEN now() + (n % 89 + 1) * interval '1 day'
            ELSE created_at END,
       CASE WHEN n % 10 < 5 THEN 1 + n % 40 ELSE 0 END,
       CASE WHEN n % 10 < 5 THEN 5 ELSE 0 END,
       0, 0, 0,
       CASE WHEN n % 10 < 5 THEN 1 + n % 7 ELSE 0 END,
       0,
       CASE WHEN n % 10 < 5 THEN 'review' ELSE 'new' END,
       CASE WHEN n % 10 < 5 THEN now() - interval '3 days' ELSE NULL END
     FROM inserted`,
    [userId, CARDS, userId],
  );
}

async function getJson(ctx: BenchContext, path: string, headers: Record<string, string>) {
  const res = await fetch(ctx.baseUrl + path, { headers });
  if (!res.ok) throw new Error(`GET ${path} → ${res.status} ${await res.text()}`);
  return (await res.json()) as any;
}

async function postJson(ctx: BenchContext, path: string, headers: Record<string, string>, body: unknown) {
  const res = await fetch(ctx.baseUrl + path, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`POST ${path} → ${res.status} ${await res.text()}`);
  return (await res.json()) as any;
}

function percentiles(values: number[]): { p50: number; p99: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return { p50: at(0.5), p99: at(0.99) };
}

const ratio = (value: number, base: number) => (base > 0 ? (value / base).toFixed(1) : 'n/a');
