/**
 * Page translation (POST /api/immersive-translate) with 40-item batches:
 * - fully cached: every request a new request_id over the same 40 texts (cache hits, no provider
 *   call, nothing charged), against the FLOOR route with the same guards and one INSERT;
 * - fully uncached: every request 40 new texts, the fake provider answering at 0 ms and at 300 ms.
 *   The figure that counts is our overhead: p50 total minus the provider's latency;
 * - a shared-site workload: several users reading overlapping pages of one site (a header and
 *   footer on every page, paragraphs per page), priced by tokens like gpt-4o-mini. Provider calls
 *   and provider cost, against a floor from the same run: every distinct text of the workload
 *   translated once, 40 to a call (what one cache shared without any isolation would pay).
 */
import { randomUUID } from 'node:crypto';
import type autocannon from 'autocannon';
import { PAGE_TRANSLATION_LIMITS } from '../../src/domain/limits.ts';
import type { BenchContext } from '../support.ts';
import { sharedSiteWorkload } from '../shared-site-workload.ts';

const LOAD_SECONDS = 6;
const CONNECTIONS = 8;
/** A full batch. */
const ITEMS = PAGE_TRANSLATION_LIMITS.maxItems;

const itemsFor = (prefix: string) =>
  Array.from({ length: ITEMS }, (_, i) => ({ id: `p${i}`, text: `${prefix} paragraph ${i}: the <b0>quick</b0> brown fox jumps over the lazy dog {0}.` }));

export default async function pageTranslation(ctx: BenchContext): Promise<void> {
  ctx.fake.reset();
  const user = await ctx.createUser();
  const headers = { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' };
  const run = randomUUID().slice(0, 8);

  // Warm the cache with one page, then serve it again and again under new request_ids.
  const cachedItems = itemsFor(`cached ${run}`);
  const warm = await fetch(`${ctx.baseUrl}/api/immersive-translate`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ request_id: `warm-${run}`, target_language: 'fr', source_language: 'auto', items: cachedItems }),
  });
  if (warm.status !== 200) throw new Error(`warm-up answered ${warm.status}: ${await warm.text()}`);
  // Other scenarios' work may still reach the shared fake provider: count only batch translations.
  const batchCalls = () => ctx.fake.requests.filter((r) => r.body?.response_format?.json_schema?.name === 'translate_batch').length;
  const callsBefore = batchCalls();

  let n = 0;
  const floor = await measure(ctx, 'floor (1 INSERT)', '/bench/floor', headers, () => ({ text: `floor ${run} ${++n}` }));
  const cached = await measure(ctx, `cached ${ITEMS} items`, '/api/immersive-translate', headers, () => ({
    request_id: `cached-${run}-${++n}`,
    target_language: 'fr',
    source_language: 'auto',
    items: cachedItems,
  }));
  if (batchCalls() !== callsBefore) throw new Error('a cached batch reached the provider');
  const p50 = cached.latency.p50 / Math.max(floor.latency.p50, 1);
  const p99 = cached.latency.p99 / Math.max(floor.latency.p99, 1);
  ctx.report('page-transl', `cached ${ITEMS}-item batch p50 ÷ floor p50`, `${p50.toFixed(2)}× (${cached.latency.p50} ms)`, {
    floor: `${floor.latency.p50} ms`,
    goal: '≤ 1.5×',
    met: p50 <= 1.5,
  });
  ctx.report('page-transl', `cached ${ITEMS}-item batch p99 ÷ floor p99`, `${p99.toFixed(2)}× (${cached.latency.p99} ms)`, {
    floor: `${floor.latency.p99} ms`,
    goal: '≤ 1.5×',
    met: p99 <= 1.5,
  });
  ctx.report('page-transl', 'cached / floor throughput', `${(cached.requests.average / floor.requests.average).toFixed(2)}×`);

  for (const latencyMs of [0, 300]) {
    ctx.fake.setLatency(latencyMs);
    const uncached = await measure(ctx, `uncached ${ITEMS} items, provider ${latencyMs} ms`, '/api/immersive-translate', headers, () => {
      const id = `${run}-${latencyMs}-${++n}`;
      return { request_id: `fresh-${id}`, target_language: 'fr', source_language: 'auto', items: itemsFor(`fresh ${id}`) };
    });
    ctx.report('page-transl', `uncached (provider ${latencyMs} ms): p50 − provider`, `${(uncached.latency.p50 - latencyMs).toFixed(1)} ms`);
  }
  ctx.fake.setLatency(0);
  await sharedSiteWorkload(ctx, run);
}

async function measure(ctx: BenchContext, name: string, path: string, headers: Record<string, string>, body: () => unknown): Promise<autocannon.Result> {
  const result = await ctx.load({
    connections: CONNECTIONS,
    duration: LOAD_SECONDS,
    requests: [{ method: 'POST', path, headers, setupRequest: (request) => ({ ...request, body: JSON.stringify(body()) }) }],
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  console.log(
    `${name}: ${result.requests.total} requests, ${result.requests.average} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, failed ` +
      `${bad}; API peak RSS so far ${ctx.peakRss().api} MB`,
  );
  ctx.report('page-transl', `${name} req/s`, result.requests.average.toFixed(0));
  ctx.report('page-transl', `${name} p50 / p99`, `${result.latency.p50} ms / ${result.latency.p99} ms`);
  if (bad > 0) ctx.report('page-transl', `${name} failed requests`, String(bad));
  return result;
}
