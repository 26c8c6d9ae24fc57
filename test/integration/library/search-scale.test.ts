import { afterAll, beforeAll, expect, it } from 'vitest';
import { LIBRARY_SEARCH_CONDITION } from '../../../src/features/library/service.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { capture, waitForStatus } from './helpers.ts';

let stack: Stack;
let user: TestUser;
beforeAll(async () => {
  stack = await startStack();
  user = await newUser(stack.http);
  // 100,000 ready cards for one user, written directly (the API path is covered elsewhere).
  await stack.orm.em.fork().execute(
    `INSERT INTO cards (id, user_id, text, normalised_key, enrichment_status, enrichment, enrichment_attempt, created_at)
     SELECT gen_random_uuid(), ?, 'expression ' || i || ' ' || md5(i::text), 'expression ' || i || ' ' || md5(i::text), 'ready',
            jsonb_build_object('translation', 'traduction ' || md5((i + 1)::text), 'correctedText', null, 'correctionNote', null,
              'usage', jsonb_build_object('register', 'neutral', 'guidance', 'g', 'examples', jsonb_build_array('e')),
              'focuses', jsonb_build_array(jsonb_build_object('kind', 'meaning', 'note', 'n'))), 1, now() - i * interval '1 second'
     FROM generate_series(1, 100000) AS i`,
    [user.userId],
  );
  await stack.orm.em.fork().execute(`ANALYZE cards`);
}, 180_000);
afterAll(async () => { await stack?.close(); });

async function timed(path: string) {
  const started = performance.now();
  const res = await stack.http('GET', path, { token: user.token });
  expect(res.status, res.text).toBe(200);
  return { body: res.body, ms: performance.now() - started };
}

it('searches 100,000 cards case- and accent-insensitively through the trigram index, fast', async () => {
  stack.fake.setCost('0.00001');
  const card = await capture(stack, user, 'Crème brûlée');
  await waitForStatus(stack, user, card.cardId, 'ready');

  await timed('/api/library?query=warm-up');
  const { body, ms } = await timed(`/api/library?query=${encodeURIComponent('CREME BRULEE')}`);
  expect(body.items.map((i: any) => i.cardId)).toEqual([card.cardId]);
  expect(ms).toBeLessThan(500);

  const plan = await stack.orm.em.fork().execute<{ 'QUERY PLAN': string }[]>(
    `EXPLAIN SELECT id FROM cards c WHERE c.user_id = ? AND ${LIBRARY_SEARCH_CONDITION} ORDER BY c.created_at DESC, c.id DESC LIMIT 51`,
    [user.userId, 'CRÈME BRÛLÉE'],
  );
  expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toContain('cards_search_idx');
});

it('pages through 100,000 cards with the cursor, each page fast', async () => {
  let cursor: string | null = null;
  for (let page = 0; page < 5; page++) {
    const { body, ms }: any = await timed(`/api/library?limit=200${cursor ? `&cursor=${cursor}` : ''}`);
    expect(body.items).toHaveLength(200);
    expect(ms).toBeLessThan(500);
    cursor = body.nextCursor;
  }
  expect(cursor).not.toBeNull();
});
