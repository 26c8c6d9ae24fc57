import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { retryWindowMs, ACTIVITY_RETRY } from '../../../src/domain/retry-policy.ts';
import { startPrivateDatabase, type PrivateDatabase } from '../../support/private-database.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser } from '../../support/users.ts';
import { capture, preparationCalls, preparationCharges, setBalance } from '../library/helpers.ts';
import { asyncHeaders, translationCalls } from '../sentences/support.ts';
import { api, expectProblem, expectStatus, rawHttp } from '../../support/api.ts';

let db: PrivateDatabase;
let stack: Stack;
beforeAll(async () => {
  db = await startPrivateDatabase();
  stack = await startStack({ databaseUrl: db.url });
});
afterAll(async () => {
  await db?.start(); // let the stack close cleanly even if the test failed mid-outage
  await stack?.close();
  await db?.close();
});

/** Longer than the whole retry budget of the code before this fix (~7 s for cards, ~3 s for sentences). */
const OUTAGE_MS = 20_000;

it('a database outage longer than a few seconds fails no accepted work: captures end ready, async sentences translated, each charged once', async () => {
  expect(retryWindowMs(ACTIVITY_RETRY.infrastructureAttempts)).toBeGreaterThan(OUTAGE_MS * 10);
  const user = await newUser(stack);
  // Each unit holds its maximum cost until charged (src/features/credits/paid-call.ts): ten in flight at once need more than a new wallet.
  await setBalance(stack, user.userId, 100_000);
  stack.fake.setCost('0.00001');
  stack.fake.setLatency(1_500); // the outage begins while every model call is in flight

  const cardIds: string[] = [];
  for (let i = 0; i < 5; i++) cardIds.push((await capture(stack, user, `outage capture ${i}`)).cardId);
  const sentenceIds: string[] = [];
  for (let i = 0; i < 5; i++) {
    const res = await api(stack, { token: user.token }).POST('/api/sentences', {
      params: { query: { mode: 'async' } },
      headers: asyncHeaders,
      body: { original_text: `Outage sentence ${i} ${randomUUID()}` },
    });
    expectStatus(res, 202);
    sentenceIds.push(res.body.sentence.id);
  }
  await vi.waitFor(
    () => {
      expect(preparationCalls(stack)).toHaveLength(5);
      expect(translationCalls(stack)).toHaveLength(5);
    },
    { timeout: 30_000, interval: 100 },
  );

  await db.stop();
  expect((await api(stack, { token: user.token, expected5xx: [503] }).GET('/api/library')).status).toBe(503);
  await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
  await db.start();

  const em = () => stack.orm.em.fork();
  await vi.waitFor(
    async () => {
      const cards = await em().execute<{ enrichment_status: string; enrichment_error: unknown }[]>(
        `SELECT enrichment_status, enrichment_error FROM cards WHERE id IN (?)`,
        [cardIds],
      );
      expect(cards.map((c) => c.enrichment_status)).toEqual(Array(5).fill('ready'));
      const sentences = await em().execute<{ status: string; error_code: string | null }[]>(`SELECT status, error_code FROM sentences WHERE id IN (?)`, [
        sentenceIds,
      ]);
      expect(sentences).toEqual(Array(5).fill({ status: 'translated', error_code: null }));
    },
    { timeout: 90_000, interval: 500 },
  );

  const charges = await preparationCharges(stack, user.userId);
  expect(charges.map((c) => c.ref).sort()).toEqual([...cardIds].sort());
  const sentenceCharges = await em().execute<{ ref: string }[]>(`SELECT ref FROM ledger_entries WHERE user_id = ? AND kind = 'sentence_translation'`, [
    user.userId,
  ]);
  expect(sentenceCharges.map((c) => c.ref).sort()).toEqual([...sentenceIds].sort());
}, 180_000);

it('a request whose database goes away mid-statement answers 503 service_unavailable with Retry-After, over REST and tRPC alike', async () => {
  const user = await newUser(stack);
  // The user's row is held, so that both requests pass authentication and wait inside their own
  // statement (REST's route, tRPC's procedure) when PostgreSQL stops.
  let release = () => {};
  let locked = () => {};
  const lockTaken = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const held = stack.orm.em
    .fork()
    .transactional(async (tx) => {
      await tx.execute(`SELECT 1 FROM users WHERE id = ? FOR UPDATE`, [user.userId]);
      locked();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
    })
    .catch(() => {});
  await lockTaken;
  const languages = { targetLanguage: 'en', nativeLanguage: 'de' } as const;
  const rest = api(stack, { token: user.token, expected5xx: [503] }).PUT('/api/settings/language', { body: languages });
  const trpc = rawHttp(stack, 'POST', '/trpc/account.setLanguages', { token: user.token, body: languages, expected5xx: [503] });
  await vi.waitFor(
    async () => {
      // Exactly these two requests' statement waits (other sessions may wait on locks of their own).
      const [row] = await stack.orm.em
        .fork()
        .execute<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'UPDATE users SET target_language%'`,
        );
      expect(row!.n).toBe(2);
    },
    { timeout: 10_000, interval: 50 },
  );

  // A crash, not a fast shutdown: that one lets the lock holder roll back and release the row before
  // the waiting statements are stopped, and one of them could still commit (seen under load).
  await db.crash();
  release();
  await held;
  const [restAnswer, trpcAnswer] = await Promise.all([rest, trpc]);
  await db.start();

  expectProblem(restAnswer, 503, 'service_unavailable');
  expect(restAnswer.headers.get('retry-after')).toBe('5');
  expect(restAnswer.body.retryAfterSeconds).toBe(5);
  expect(trpcAnswer.status, trpcAnswer.text).toBe(503);
  expect(trpcAnswer.headers.get('retry-after')).toBe('5');
  expect(trpcAnswer.body.error.data).toMatchObject({
    code: 'SERVICE_UNAVAILABLE',
    problem: { code: 'service_unavailable', status: 503, retryAfterSeconds: 5 },
  });
}, 60_000);
