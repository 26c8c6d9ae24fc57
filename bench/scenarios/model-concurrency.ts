/**
 * MODEL_MAX_CONCURRENCY (issue 34, src/services/model-slots.ts), each figure beside its floor from the same run:
 *
 * 1. What the cap costs on the router path: the production model client against the fake provider
 *    (0 ms), with a cap that never makes a call wait (its cost is taking and giving back a slot in
 *    PostgreSQL), against the same client with no cap. One call at a time, alternating, then
 *    CONCURRENT callers for LOAD_MS each.
 * 2. The most calls ever in flight under a cap of IN_FLIGHT_CAP with many more callers (the fake
 *    counts the completions it answers at once): it must equal the cap.
 * 3. With an API and a worker started with MODEL_MAX_CONCURRENCY=2 (their own task queue), a capture's
 *    time from saved to ready (the database's clock: enriched_at − created_at), one every
 *    SAMPLE_EVERY_MS, while an import of IMPORT_SIZE prepares, against the same captures with no
 *    import; and the most calls in flight over both processes meanwhile.
 * 4. Back at once (the bench's own API and worker, production breaker and waits): OUTAGE_CARDS captures
 *    while the provider fails for OUTAGE_MS; the seconds from its first good answer after the outage to
 *    the last of them ready (the fake's clock and the database's, one machine), against the 10 s goal.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { createModelClient, type ModelClient } from '../../src/model/model-client.ts';
import { modelSlots } from '../../src/services/model-slots.ts';
import { startService } from '../processes.ts';
import type { BenchContext } from '../support.ts';

const SEQUENTIAL_CALLS = 300;
const CONCURRENT = 8;
const LOAD_MS = 4_000;
const IN_FLIGHT_CAP = 4;
const PROCESS_CAP = 2;
const SAMPLES = 60;
const SAMPLE_EVERY_MS = 150;
const IMPORT_SIZE = 400;
const PROVIDER_MS = 50;
const OUTAGE_MS = 30_000;
const OUTAGE_CARDS = 20;

const request = { task: 'bench_echo', schema: z.object({ word: z.string() }), system: 'Echo.', input: { word: 'echo' }, maxTokens: 20 };

export default async function modelConcurrency(ctx: BenchContext): Promise<void> {
  ctx.fake.reset();
  ctx.fake.setLatency(0);
  const run = randomUUID().slice(0, 8);
  const plain = createModelClient(ctx.config.model);
  const capped = (max: number) =>
    createModelClient({ ...ctx.config.model, concurrency: { max, syncWaitMs: 60_000 } }, { slots: modelSlots(ctx.orm, `bench-${run}-${max}`, max) });

  // 1. The cap's own cost: a cap as wide as the callers, so no call waits.
  const wide = capped(CONCURRENT);
  await timeCalls(plain, 20);
  await timeCalls(wide, 20);
  const alone = { plain: [] as number[], capped: [] as number[] };
  for (let i = 0; i < SEQUENTIAL_CALLS; i++) {
    alone.plain.push(...(await timeCalls(plain, 1)));
    alone.capped.push(...(await timeCalls(wide, 1)));
  }
  const ms = (values: number[]) => `${quantile(values, 0.5).toFixed(2)} / ${quantile(values, 0.99).toFixed(2)} ms`;
  ctx.report('model-cap', `router path, one call at a time: p50 / p99 with a cap (${CONCURRENT}, never waited for)`, ms(alone.capped), {
    floor: `${ms(alone.plain)} with no cap`,
  });
  const plainRate = await callsPerSecond(plain);
  const cappedRate = await callsPerSecond(wide);
  ctx.report(
    'model-cap',
    `router path, ${CONCURRENT} callers: calls/s with a cap of ${CONCURRENT}`,
    `${cappedRate.toFixed(0)} (${(cappedRate / plainRate).toFixed(2)}×)`,
    {
      floor: `${plainRate.toFixed(0)} with no cap`,
    },
  );

  // 2. Many callers, a narrow cap.
  ctx.fake.reset();
  ctx.fake.setLatency(20);
  await Promise.all(Array.from({ length: 32 }, () => timeCalls(capped(IN_FLIGHT_CAP), 10)));
  const most = ctx.fake.stats().mostInFlight;
  ctx.report('model-cap', `most calls in flight: 32 callers, cap ${IN_FLIGHT_CAP}`, String(most), {
    floor: `cap ${IN_FLIGHT_CAP}`,
    goal: '= the cap',
    met: most === IN_FLIGHT_CAP,
  });

  // 3. A capped API and worker: a capture while an import prepares.
  await cappedProcesses(ctx, run);

  // 4. Back at once after an outage.
  await afterOutage(ctx, run);
}

async function afterOutage(ctx: BenchContext, run: string): Promise<void> {
  ctx.fake.reset();
  const user = await ctx.createUser();
  ctx.fake.failFor(OUTAGE_MS);
  const outageEnds = Date.now() + OUTAGE_MS;
  const ids = await Promise.all(
    Array.from({ length: OUTAGE_CARDS }, async (_, i) => {
      const body = (await post(ctx.baseUrl, user.token, '/api/library', { text: `through an outage ${run} number ${i}` })) as { card: { cardId: string } };
      return body.card.cardId;
    }),
  );
  const em = ctx.orm.em.fork();
  for (;;) {
    const [row] = await em.execute<{ ready: string; last: number | null }[]>(
      `SELECT count(*) FILTER (WHERE enrichment_status = 'ready') AS ready, extract(epoch FROM max(enriched_at)) * 1000 AS last FROM cards WHERE id IN (?)`,
      [ids],
    );
    if (Number(row!.ready) === ids.length) {
      const firstGood = Math.min(...ctx.fake.requests.filter((r) => r.at >= outageEnds && r.costUsd !== undefined).map((r) => r.at));
      const seconds = (Number(row!.last) - firstGood) / 1000;
      const sinceBack = (Number(row!.last) - outageEnds) / 1000;
      console.log(`after a ${OUTAGE_MS / 1000} s outage: first good answer ${((firstGood - outageEnds) / 1000).toFixed(1)} s after it ended`);
      ctx.report(
        'model-cap',
        `${OUTAGE_MS / 1000} s outage, ${OUTAGE_CARDS} cards waiting: last ready after the first good answer`,
        `${seconds.toFixed(1)} s`,
        {
          floor: `${sinceBack.toFixed(1)} s after the provider was back`,
          goal: '≤ 10 s',
          met: seconds <= 10,
        },
      );
      return;
    }
    if (Date.now() - outageEnds > 300_000) throw new Error(`only ${row!.ready}/${ids.length} ready 5 minutes after the outage`);
    await sleep(100);
  }
}

async function cappedProcesses(ctx: BenchContext, run: string): Promise<void> {
  const env = { ...ctx.env, MODEL_MAX_CONCURRENCY: String(PROCESS_CAP), TEMPORAL_TASK_QUEUE: `bench-capped-${run}` };
  const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
  const [api, worker] = await Promise.all([
    startService('capped API', here('../api-process.ts'), env, /^listening \d+$/),
    // Its readiness line is logged at info.
    startService('capped worker', here('../../src/worker/main.ts'), { ...env, LOG_LEVEL: 'info' }, /worker running/),
  ]);
  try {
    const baseUrl = `http://127.0.0.1:${api.readyLine.split(' ')[1]}`;
    const user = await ctx.createUser();
    ctx.fake.reset();
    ctx.fake.setLatency(PROVIDER_MS);
    const alone = await pacedCaptures(ctx, baseUrl, user.token, `alone ${run}`);
    ctx.fake.reset();
    ctx.fake.setLatency(PROVIDER_MS);
    const expressions = Array.from({ length: IMPORT_SIZE }, (_, i) => `capped import ${run} number ${i}`);
    await post(baseUrl, user.token, '/api/library/imports', { expressions, source: 'bench.txt' });
    await sleep(1_000); // the import's first preparations are in flight
    const during = await pacedCaptures(ctx, baseUrl, user.token, `during ${run}`);
    const most = ctx.fake.stats().mostInFlight;
    const line = (l: { p50: number; p99: number }) => `${l.p50.toFixed(0)} / ${l.p99.toFixed(0)} ms`;
    ctx.report('model-cap', `cap ${PROCESS_CAP}, provider ${PROVIDER_MS} ms: capture → ready p50 / p99 during an import of ${IMPORT_SIZE}`, line(during), {
      floor: `${line(alone)} with no import`,
    });
    ctx.report('model-cap', `cap ${PROCESS_CAP}: most calls in flight over the API and worker processes`, String(most), {
      floor: `cap ${PROCESS_CAP}`,
      goal: '= the cap',
      met: most === PROCESS_CAP,
    });
  } finally {
    await Promise.all([api.stop(), worker.stop()]);
    ctx.fake.setLatency(0);
  }
}

/** SAMPLES captures, one every SAMPLE_EVERY_MS (an open loop), each timed from saved to ready by the database. */
async function pacedCaptures(ctx: BenchContext, baseUrl: string, token: string, label: string): Promise<{ p50: number; p99: number }> {
  const started = performance.now();
  const ids = await Promise.all(
    Array.from({ length: SAMPLES }, async (_, i) => {
      await sleep(Math.max(0, started + i * SAMPLE_EVERY_MS - performance.now()));
      const body = (await post(baseUrl, token, '/api/library', { text: `capped capture ${label} number ${i}` })) as { card: { cardId: string } };
      return body.card.cardId;
    }),
  );
  const em = ctx.orm.em.fork();
  for (;;) {
    const rows = await em.execute<{ status: string; ms: number | null }[]>(
      `SELECT enrichment_status AS status, extract(epoch FROM enriched_at - created_at) * 1000 AS ms FROM cards WHERE id IN (?)`,
      [ids],
    );
    if (rows.some((r) => r.status === 'failed')) throw new Error('a capture failed');
    if (rows.length === ids.length && rows.every((r) => r.status === 'ready')) {
      const ms = rows.map((r) => Number(r.ms));
      const result = { p50: quantile(ms, 0.5), p99: quantile(ms, 0.99) };
      console.log(`${SAMPLES} captures ${label}: to ready p50 ${result.p50.toFixed(0)} ms, p99 ${result.p99.toFixed(0)} ms`);
      return result;
    }
    if (performance.now() - started > 300_000) throw new Error('captures not ready within 5 minutes');
    await sleep(200);
  }
}

async function post(baseUrl: string, token: string, path: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${path} → ${res.status} ${await res.text()}`);
  return res.json();
}

async function timeCalls(model: ModelClient, count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await model.complete(request);
    out.push(performance.now() - t);
  }
  return out;
}

async function callsPerSecond(model: ModelClient): Promise<number> {
  const until = performance.now() + LOAD_MS;
  let calls = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENT }, async () => {
      while (performance.now() < until) {
        await model.complete(request);
        calls++;
      }
    }),
  );
  return calls / ((performance.now() - started) / 1000);
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
