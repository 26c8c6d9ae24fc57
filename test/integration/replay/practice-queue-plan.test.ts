import { afterAll, beforeAll, expect, it } from 'vitest';
import { allRows, sql } from '../../../src/db/sql.ts';
import { practiceCandidatesSql } from '../../../src/features/library/card-reads.ts';
import { startPrivateDatabase, type PrivateDatabase } from '../../support/private-database.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';

let db: PrivateDatabase;
let stack: Stack;
let user: TestUser;
beforeAll(async () => {
  // A database of its own: "before ANALYZE" must mean no statistics yet. On the run's shared
  // database, autovacuum may have analysed card_schedules while other files' learners filled it,
  // and those statistics (a dozen cards a learner) made the plan differ from run to run.
  db = await startPrivateDatabase();
  stack = await startStack({ databaseUrl: db.url, worker: false });
  user = await newUser(stack);
  // 10,000 ready cards written directly, half new, half reviewed (some due), as a large library holds.
  await stack.orm.em.fork().execute(
    `WITH inserted AS (
       INSERT INTO cards (id, user_id, text, normalised_key, enrichment_status, enrichment, created_at, enriched_at)
       SELECT gen_random_uuid(), ?, 'expression ' || g, 'expression ' || g, 'ready', jsonb_build_object('translation', 'traduction ' || g),
              now() - g * interval '1 minute', now()
       FROM generate_series(1, 10000) AS g
       RETURNING id, created_at, (regexp_match(text, '(\\d+)$'))[1]::int AS n
     )
     INSERT INTO card_schedules (card_id, user_id, due, stability, difficulty, elapsed_days, scheduled_days, learning_steps, reps, lapses, state, last_review)
     SELECT id, ?, CASE WHEN n % 2 = 0 THEN created_at ELSE now() + (n % 40 - 20) * interval '1 day' END,
            CASE WHEN n % 2 = 0 THEN 0 ELSE 5 END, 5, 0, 0, 0, CASE WHEN n % 2 = 0 THEN 0 ELSE 3 END, 0,
            CASE WHEN n % 2 = 0 THEN 'new' ELSE 'review' END, CASE WHEN n % 2 = 0 THEN NULL ELSE now() - interval '3 days' END
     FROM inserted`,
    [user.userId, user.userId],
  );
}, 120_000);
afterAll(async () => {
  await stack?.close();
  await db?.close();
});

// Behaviour only: the bench times opening a session (bench/scenarios/replay.ts); the plan says why it stays low.
it("reads a session's candidates from an index per kind of card: in order once analysed, never by a scan of every card", async () => {
  const em = stack.orm.em.fork();
  const plan = async () =>
    (await allRows<{ 'QUERY PLAN': string }>(em, sql`EXPLAIN ${practiceCandidatesSql(user.userId, new Date(), 50)}`)).map((r) => r['QUERY PLAN']).join('\n');
  const fresh = await plan();
  await em.execute(`ANALYZE cards, card_schedules`);
  const analysed = await plan();
  for (const [when, text] of [
    ['before ANALYZE', fresh],
    ['after ANALYZE', analysed],
  ] as const) {
    expect(text, when).toContain('card_schedules_user_seen_due_idx');
    expect(text, when).toContain('card_schedules_user_new_due_idx');
    expect(text, when).not.toMatch(/Seq Scan on card_schedules/);
  }
  // In (due, card_id) order straight from the indexes: 50 rows read per kind, nothing sorted.
  expect(analysed).not.toMatch(/Sort Key/);
});
