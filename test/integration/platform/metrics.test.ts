import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMetricsServer, type MetricsServer } from '../../../src/platform/metrics.ts';
import { useStack, type Started } from '../../support/fixture.ts';
import { counterValue, histogramCount, scrapedValue } from '../../support/metrics.ts';
import { newUser } from '../../support/users.ts';
import { capture, setBalance, waitForStatus } from '../library/helpers.ts';
import { translateBody, uniqueText } from '../page-translation/support.ts';
import { api, rawHttp } from '../../support/api.ts';

let stack: Started['stack'];
let user: Started['user'];
useStack((started) => ({ stack, user } = started), { fakeCost: '0.00001' }); // 1 credit per preparation

let server: MetricsServer;
beforeAll(async () => {
  server = await startMetricsServer({ port: 0, host: '127.0.0.1' });
});
afterAll(() => server.close());
const scrape = async () => (await fetch(server.url)).text();

/** The figures this file moves, read before and after its sequence: other files run in other processes. */
const figures = {
  capturesNew: () => counterValue('lcs_captures_total', { result: 'new' }),
  capturesExisting: () => counterValue('lcs_captures_total', { result: 'existing' }),
  ready: () => counterValue('lcs_card_preparations_total', { outcome: 'ready', code: '' }),
  noCredits: () => counterValue('lcs_card_preparations_total', { outcome: 'insufficient_credits', code: 'insufficient_credits' }),
  refused: () => counterValue('lcs_card_preparations_total', { outcome: 'failed', code: 'privacy_routing_unavailable' }),
  captureToReady: () => histogramCount('lcs_capture_to_ready_seconds'),
  creditsForCards: () => counterValue('lcs_credits_charged_total', { kind: 'capture_preparation' }),
  cardReads: () => counterValue('lcs_http_requests_total', { method: 'GET', route: '/api/library/:cardId', status: '200' }),
  unmatched: () => counterValue('lcs_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }),
  preparationCalls: () => histogramCount('lcs_provider_call_duration_seconds', { task: 'capture_preparation', answered: 'true' }),
  translationCalls: () => histogramCount('lcs_provider_call_duration_seconds', { task: 'translate_batch', answered: 'true' }),
  cacheHits: () => counterValue('lcs_translation_cache_hits_total', {}),
  cacheMisses: () => counterValue('lcs_translation_cache_misses_total', {}),
};
type Figures = Record<keyof typeof figures, number>;
const read = async (): Promise<Figures> =>
  Object.fromEntries(await Promise.all(Object.entries(figures).map(async ([name, value]) => [name, await value()]))) as Figures;

it('counts requests by route pattern, captures, preparations by outcome and code, provider calls, credits, cache hits, after a known sequence', async () => {
  const before = await read();

  const first = await capture(stack, user, 'metrics first card');
  const second = await capture(stack, user, 'metrics second card');
  await capture(stack, user, 'Metrics first card', 200); // the same expression: the existing card
  await waitForStatus(stack, user, first.cardId, 'ready'); // GET /api/library/:cardId, 200, at least once each
  await waitForStatus(stack, user, second.cardId, 'ready');

  const broke = await newUser(stack);
  await setBalance(stack, broke.userId, 0);
  await waitForStatus(stack, broke, (await capture(stack, broke, 'metrics while broke')).cardId, 'failed');
  stack.fake.setMode('privacy_refusal');
  await waitForStatus(stack, user, (await capture(stack, user, 'metrics refused routing')).cardId, 'failed');
  stack.fake.setMode('ok');

  expect((await rawHttp(stack, 'GET', `/api/no-such-route/${first.cardId}?q=secret`, { token: user.token })).status).toBe(404);
  const page = translateBody(
    [
      { id: 'a', text: uniqueText('Guten Morgen') },
      { id: 'b', text: uniqueText('Gute Nacht') },
    ],
    { target_language: 'en' },
  );
  expect((await api(stack, { token: user.token }).POST('/api/immersive-translate', { body: page })).status).toBe(200);
  expect((await api(stack, { token: user.token }).POST('/api/immersive-translate', { body: { ...page, request_id: `${page.request_id}-again` } })).status).toBe(
    200,
  );

  const after = await read();
  const moved = Object.fromEntries(Object.keys(figures).map((name) => [name, after[name as keyof Figures] - before[name as keyof Figures]]));
  expect(moved).toMatchObject({
    capturesNew: 4,
    capturesExisting: 1,
    ready: 2,
    noCredits: 1,
    refused: 1,
    captureToReady: 2,
    creditsForCards: 2,
    unmatched: 1,
    preparationCalls: 2,
    translationCalls: 1, // the second page was served from the cache
    cacheHits: 2,
    cacheMisses: 2,
  });
  expect(moved.cardReads).toBeGreaterThanOrEqual(2);

  const text = await scrape();
  // Route patterns only: never an id or a query string.
  expect(text).not.toContain(first.cardId);
  expect(text).not.toContain('secret');
  expect(scrapedValue(text, 'lcs_http_request_duration_seconds_count', { method: 'GET', route: '/api/library/:cardId' })).toBeGreaterThanOrEqual(2);
  // The Temporal SDK's worker metrics, in the same scrape.
  expect(scrapedValue(text, 'temporal_workflow_completed_total', { service: 'language-capture' })).toBeGreaterThanOrEqual(1);
  expect(text).toMatch(/^temporal_worker_task_slots_available\{/m);
});

it('reports the outbox backlog and the age of its oldest start, read from the database at the scrape', async () => {
  // A start for a task queue no relay serves stays pending: a backlog a minute old.
  const em = stack.orm.em.fork();
  const [row] = await em.execute<{ id: string }[]>(
    `INSERT INTO workflow_outbox (workflow_type, workflow_id, task_queue, args, user_id, kind, created_at)
     VALUES ('cardEnrichment', ?, 'metrics-no-relay', '[]'::jsonb, ?, 'card-enrichment', now() - interval '60 seconds') RETURNING id`,
    [`card-enrichment/metrics-${Date.now()}`, user.userId],
  );
  try {
    await new Promise((r) => setTimeout(r, 1_100)); // past the reading a previous scrape may have left
    const text = await scrape();
    expect(scrapedValue(text, 'lcs_outbox_pending')).toBeGreaterThanOrEqual(1);
    expect(scrapedValue(text, 'lcs_outbox_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(60);
  } finally {
    await em.execute(`DELETE FROM workflow_outbox WHERE id = ?`, [row!.id]);
  }
});
