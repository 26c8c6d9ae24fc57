import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LIST_LIMIT_MAX } from '../../../src/domain/limits.ts';
import type { operations } from '../../../clients/rest/schema.d.ts';
import { allRows, sql, type Sql } from '../../../src/db/sql.ts';
import { librarySearchCondition } from '../../../src/features/library/service.ts';
import { startStack, type Stack } from '../../support/stack.ts';
import { newUser, type TestUser } from '../../support/users.ts';
import { capture, waitForStatus } from './helpers.ts';
import { api, bodyOf } from '../../support/api.ts';

let stack: Stack;
let user: TestUser;
beforeAll(async () => {
  // More cards than a free library holds (20,000): the bound is not what this file tests.
  stack = await startStack({ env: { LIBRARY_MAX_CARDS_FREE: '1000000' } });
  user = await newUser(stack);
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
afterAll(async () => {
  await stack?.close();
});

// Behaviour only: the bench measures the times (bench/scenarios/search.ts), the plans below say why they stay low.
async function list(query: NonNullable<operations['library.list']['parameters']['query']>) {
  return bodyOf(await api(stack, { token: user.token }).GET('/api/library', { params: { query } }), 200);
}

it("searches 100,000 cards case- and accent-insensitively through the trigram index, the learner's own part of it", async () => {
  stack.fake.setCost('0.00001');
  const card = await capture(stack, user, 'Crème brûlée');
  await waitForStatus(stack, user, card.cardId, 'ready');

  const body = await list({ query: 'CREME BRULEE' });
  expect(body.items.map((i) => i.cardId)).toEqual([card.cardId]);

  const plan = await allRows<{ 'QUERY PLAN': string }>(
    stack.orm.em.fork(),
    sql`EXPLAIN SELECT id FROM cards c WHERE c.user_id = ${user.userId} AND ${librarySearchCondition('CRÈME BRÛLÉE')}
        ORDER BY c.created_at DESC, c.id DESC LIMIT 51`,
  );
  const text = plan.map((r) => r['QUERY PLAN']).join('\n');
  expect(text).toContain('cards_user_search_idx');
  // The learner's id is a condition of the index scan itself, not a filter on every learner's matches.
  expect(text).toMatch(/Index Cond: \(\(user_id = /);
  // Every search reads the index's whole pending list of new cards: held small (migration 0031).
  const [index] = await allRows<{ reloptions: string[] }>(stack.orm.em.fork(), sql`SELECT reloptions FROM pg_class WHERE relname = 'cards_user_search_idx'`);
  expect(index!.reloptions).toEqual(['gin_pending_list_limit=256']);
});

it('pages through 100,000 cards with the cursor', async () => {
  let cursor: string | null = null;
  for (let page = 0; page < 5; page++) {
    const body = await list({ limit: LIST_LIMIT_MAX, ...(cursor ? { cursor } : {}) });
    expect(body.items).toHaveLength(LIST_LIMIT_MAX);
    cursor = body.nextCursor;
  }
  expect(cursor).not.toBeNull();
});

it('serves every search and listing from an index, never a sequential scan of cards', async () => {
  const em = stack.orm.em.fork();
  const plan = async (query: Sql) => (await allRows<{ 'QUERY PLAN': string }>(em, sql`EXPLAIN ${query}`)).map((r) => r['QUERY PLAN']).join('\n');
  const listing = sql`SELECT id FROM cards c WHERE c.user_id = ${user.userId}`;
  const order = sql`ORDER BY c.created_at DESC, c.id DESC LIMIT 51`;
  const [deep] = await em.execute<{ id: string; created_at: Date }[]>(
    `SELECT id, created_at FROM cards WHERE user_id = ? ORDER BY created_at DESC, id DESC OFFSET 90000 LIMIT 1`,
    [user.userId],
  );
  const plans = {
    'rare word': await plan(sql`${listing} AND ${librarySearchCondition(md5Of(77))} ${order}`),
    'accent-folded': await plan(sql`${listing} AND ${librarySearchCondition('CRÈME BRÛLÉE')} ${order}`),
    'common word': await plan(sql`${listing} AND ${librarySearchCondition('expression')} ${order}`),
    'first page': await plan(sql`${listing} ${order}`),
    'deep page': await plan(sql`${listing} AND (c.created_at, c.id) < (${deep!.created_at}::timestamptz, ${deep!.id}::uuid) ${order}`),
  };
  for (const [query, text] of Object.entries(plans)) {
    expect(text, query).not.toMatch(/Seq Scan on cards/);
    expect(text, query).toMatch(/cards_user_search_idx|cards_user_created_idx/);
  }
  expect(plans['rare word']).toContain('cards_user_search_idx');
  expect(plans['first page']).toContain('cards_user_created_idx');
  expect(plans['deep page']).toContain('cards_user_created_idx');
});

/** The md5 in the seeded text of card `i`: a word that occurs in that card only. */
const md5Of = (i: number) => createHash('md5').update(String(i)).digest('hex');
