import { expect, vi } from 'vitest';
import type { Stack } from '../../support/stack.ts';
import type { TestUser } from '../../support/users.ts';
import { api, expectStatus } from '../../support/api.ts';

/** Polls the card until its enrichmentStatus is `status` (generous: CI has 2 cores). */
export async function waitForStatus(stack: Stack, user: TestUser, cardId: string, status: 'ready' | 'failed', timeout = 45_000) {
  return vi.waitFor(
    async () => {
      const res = await api(stack, { token: user.token }).GET('/api/library/{cardId}', { params: { path: { cardId } } });
      expectStatus(res, 200);
      expect(res.body.card.enrichmentStatus).toBe(status);
      return res.body.card;
    },
    { timeout, interval: 200 },
  );
}

export async function capture(stack: Stack, user: TestUser, text: string, expected: 200 | 202 = 202) {
  const res = await api(stack, { token: user.token }).POST('/api/library', { body: { text } });
  expectStatus(res, expected);
  return res.body.card;
}

/** capture_preparation ledger entries of a user (what was charged, by key). */
export async function preparationCharges(stack: Stack, userId: string) {
  return stack.orm.em
    .fork()
    .execute<{ idempotency_key: string; amount: number; ref: string }[]>(
      `SELECT idempotency_key, amount, ref FROM ledger_entries WHERE user_id = ? AND kind = 'capture_preparation' ORDER BY id`,
      [userId],
    );
}

/** Model calls the fake received for capture preparation. */
export const preparationCalls = (stack: Stack) => stack.fake.requests.filter((r) => r.body?.response_format?.json_schema?.name === 'capture_preparation');

/** Sets the user's balance directly (e.g. 0 to test running out of credits). */
export async function setBalance(stack: Stack, userId: string, balance: number) {
  await stack.orm.em.fork().execute(`UPDATE wallets SET balance = ? WHERE user_id = ?`, [balance, userId]);
}

/** `count` ready cards with schedules for the user, written directly in two statements (the API path is covered elsewhere). */
export async function insertReadyCards(stack: Stack, userId: string, count: number) {
  const em = stack.orm.em.fork();
  await em.execute(
    `INSERT INTO cards (id, user_id, text, normalised_key, enrichment_status, enrichment, enrichment_attempt, created_at)
     SELECT gen_random_uuid(), ?, 'expression ' || i || ' ' || md5(i::text), 'expression ' || i || ' ' || md5(i::text), 'ready',
            jsonb_build_object('translation', 'traduction ' || md5((i + 1)::text), 'correctedText', null, 'correctionNote', null,
              'usage', jsonb_build_object('register', 'neutral', 'guidance', 'Use it "casually", with friends.',
                'examples', jsonb_build_array('An example, with a comma.', 'Another one.')),
              'focuses', jsonb_build_array(jsonb_build_object('kind', 'meaning', 'note', 'n'))), 1, now() - i * interval '1 second'
     FROM generate_series(1, ${count}) AS i`,
    [userId],
  );
  await em.execute(
    `INSERT INTO card_schedules (card_id, user_id, due, stability, difficulty, elapsed_days, scheduled_days, learning_steps, reps, lapses, state)
     SELECT id, user_id, created_at, 0, 0, 0, 0, 0, 0, 0, 'new' FROM cards WHERE user_id = ?`,
    [userId],
  );
}
